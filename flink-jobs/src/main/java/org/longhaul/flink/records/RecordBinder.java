package org.longhaul.flink.records;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonProperty;
import com.fasterxml.jackson.annotation.JsonUnwrapped;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.PropertyNamingStrategies;
import com.fasterxml.jackson.databind.PropertyNamingStrategy;
import com.fasterxml.jackson.databind.annotation.JsonDeserialize;
import java.lang.annotation.Annotation;
import java.lang.reflect.Constructor;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.ParameterizedType;
import java.lang.reflect.RecordComponent;
import java.lang.reflect.Type;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * Binds a parsed JSON object to a record directly, in one pass over the object's fields, when every
 * field is plainly of its component's type: a string for a String, an int for an Integer, an
 * integer or a float for a Double, an object for a nested record, an array of such for a List.
 * Anything else (a number given as a string, an integer too large, a float for an integer, null or
 * nothing for a primitive, a constructor that refuses) is left to Jackson, whose answer and error
 * messages then stand: {@link #bind} returns null and {@link Json#convert} asks the mapper.
 *
 * <p>Jackson's databind does the same for the sure cases at 3–4 times the cost: a property-based
 * creator buffering each value, then looking up every absent one (most of a per-interval throughput
 * sample's 42 components). {@code RecordBinderTest} holds the two to the same result on every
 * contract example and on tens of thousands of mutated ones.
 *
 * <p>Names are the mapper's: its naming strategy on each component, or the component's own
 * {@code @JsonProperty}. A record component marked {@code @JsonUnwrapped} (the {@link Envelope})
 * takes its fields from the outer object, as Jackson does. A record with any other Jackson
 * annotation, or a component of another type, gets no binder ({@link #of} is empty) and is always
 * bound by Jackson.
 */
final class RecordBinder<T> {
    /** What a conversion returns when Jackson, not this binder, must decide. */
    private static final Object UNSURE = new Object();

    @FunctionalInterface
    private interface Conversion {
        /** The component's value for a present field, or {@link #UNSURE}. */
        Object apply(JsonNode node);
    }

    private record Slot(int index, Conversion conversion) {}

    /** A {@code @JsonUnwrapped} component: its arguments from {@code offset} on, its binder. */
    private record Unwrapped(int index, int offset, RecordBinder<?> binder) {}

    private final Constructor<T> constructor;
    private final int arity;
    private final Map<String, Slot> slots;

    /**
     * Per argument, its value when the field is absent: null, or {@link #UNSURE} for a primitive.
     * The record's components come first, then each unwrapped component's own arguments.
     */
    private final Object[] absent;

    private final Unwrapped[] unwrapped;

    private RecordBinder(
            Constructor<T> constructor,
            int arity,
            Map<String, Slot> slots,
            Object[] absent,
            Unwrapped[] unwrapped) {
        this.constructor = constructor;
        this.arity = arity;
        this.slots = slots;
        this.absent = absent;
        this.unwrapped = unwrapped;
    }

    /**
     * A binder for {@code type} under {@code naming}, or empty when the type is not one it binds.
     */
    static <T> Optional<RecordBinder<T>> of(Class<T> type, PropertyNamingStrategy naming) {
        if (!type.isRecord()
                || !onlyAnnotatedWith(type.getAnnotations(), JsonInclude.class)
                || !(naming instanceof PropertyNamingStrategies.NamingBase names)) {
            return Optional.empty();
        }
        RecordComponent[] components = type.getRecordComponents();
        Class<?>[] types = new Class<?>[components.length];
        for (int i = 0; i < components.length; i++) {
            types[i] = components[i].getType();
        }
        Constructor<T> constructor;
        try {
            constructor = type.getDeclaredConstructor(types);
        } catch (NoSuchMethodException e) {
            return Optional.empty();
        }
        Map<String, Slot> slots = new HashMap<>();
        List<Object> absent = new ArrayList<>();
        List<Unwrapped> unwrapped = new ArrayList<>();
        for (int i = 0; i < components.length; i++) {
            absent.add(types[i].isPrimitive() ? UNSURE : null);
        }
        Annotation[][] annotations = constructor.getParameterAnnotations();
        for (int i = 0; i < components.length; i++) {
            if (!onlyAnnotatedWith(
                    annotations[i], JsonProperty.class, JsonInclude.class, JsonUnwrapped.class)) {
                return Optional.empty();
            }
            JsonUnwrapped flat = constructor.getParameters()[i].getAnnotation(JsonUnwrapped.class);
            if (flat != null) {
                if (!flat.enabled()
                        || !flat.prefix().isEmpty()
                        || !flat.suffix().isEmpty()
                        || !unwrap(i, types[i], naming, slots, absent, unwrapped)) {
                    return Optional.empty();
                }
                continue;
            }
            Conversion c = conversion(components[i].getGenericType(), naming);
            if (c == null) {
                return Optional.empty();
            }
            JsonProperty explicit =
                    constructor.getParameters()[i].getAnnotation(JsonProperty.class);
            // interned, as the parser's field names are: each lookup then matches on identity
            String name =
                    (explicit != null && !explicit.value().isEmpty()
                                    ? explicit.value()
                                    : names.translate(components[i].getName()))
                            .intern();
            if (slots.put(name, new Slot(i, c)) != null) {
                return Optional.empty();
            }
        }
        return Optional.of(
                new RecordBinder<>(
                        constructor,
                        components.length,
                        Map.copyOf(slots),
                        absent.toArray(),
                        unwrapped.toArray(Unwrapped[]::new)));
    }

    /**
     * Takes the fields of the {@code @JsonUnwrapped} record component {@code index} among the outer
     * object's, as Jackson does: its binder's slots, shifted past the arguments so far, whose
     * record becomes the component at construction. False when Jackson must bind it (a component
     * type it cannot bind, a name the outer record has too, an unwrapping with a prefix or suffix).
     */
    private static boolean unwrap(
            int index,
            Class<?> type,
            PropertyNamingStrategy naming,
            Map<String, Slot> slots,
            List<Object> absent,
            List<Unwrapped> unwrapped) {
        RecordBinder<?> inner = of(type, naming).orElse(null);
        if (inner == null) {
            return false;
        }
        int offset = absent.size();
        for (Map.Entry<String, Slot> e : inner.slots.entrySet()) {
            Slot s = e.getValue();
            if (slots.put(e.getKey(), new Slot(offset + s.index(), s.conversion())) != null) {
                return false;
            }
        }
        absent.addAll(Arrays.asList(inner.absent));
        unwrapped.add(new Unwrapped(index, offset, inner));
        return true;
    }

    /** The record for {@code node}, or null when Jackson must bind it. */
    T bind(JsonNode node) {
        Object value = value(node);
        @SuppressWarnings("unchecked")
        T t = value == UNSURE ? null : (T) value;
        return t;
    }

    /**
     * This binder for an object given as the values of {@code names}, in that order (null where a
     * field is absent): the same record as {@link #bind} of the object, without a lookup by name. A
     * name that is no component is ignored, as an unknown field is.
     */
    FieldsBinder<T> aligned(String[] names) {
        Slot[] byPosition = new Slot[names.length];
        for (int i = 0; i < names.length; i++) {
            byPosition[i] = slots.get(names[i]);
        }
        return values -> {
            Object[] args = absent.clone();
            for (int i = 0; i < byPosition.length; i++) {
                if (values[i] != null && byPosition[i] != null) {
                    Object v = byPosition[i].conversion.apply(values[i]);
                    if (v == UNSURE) {
                        return null;
                    }
                    args[byPosition[i].index] = v;
                }
            }
            Object built = construct(args);
            @SuppressWarnings("unchecked")
            T t = built == UNSURE ? null : (T) built;
            return t;
        };
    }

    private Object value(JsonNode node) {
        if (!node.isObject()) {
            return UNSURE;
        }
        Object[] args = absent.clone();
        for (Map.Entry<String, JsonNode> field : node.properties()) {
            Slot slot = slots.get(field.getKey());
            if (slot != null) {
                Object v = slot.conversion.apply(field.getValue());
                if (v == UNSURE) {
                    return UNSURE;
                }
                args[slot.index] = v;
            }
        }
        return construct(args);
    }

    /**
     * The record of these components, or {@link #UNSURE} when one is missing or the constructor
     * refuses.
     */
    private Object construct(Object[] args) {
        for (Unwrapped u : unwrapped) {
            int width = u.binder.absent.length;
            Object inner = u.binder.construct(Arrays.copyOfRange(args, u.offset, u.offset + width));
            if (inner == UNSURE) {
                return UNSURE;
            }
            args[u.index] = inner;
        }
        Object[] own = args.length == arity ? args : Arrays.copyOf(args, arity);
        for (Object a : own) {
            if (a == UNSURE) {
                return UNSURE;
            }
        }
        try {
            return constructor.newInstance(own);
        } catch (InvocationTargetException
                | InstantiationException
                | IllegalAccessException
                | IllegalArgumentException e) {
            return UNSURE;
        }
    }

    /**
     * How a field becomes a component of {@code type}, or null for a type this binder leaves to
     * Jackson.
     */
    private static Conversion conversion(Type type, PropertyNamingStrategy naming) {
        if (type == String.class) {
            return n -> n.isTextual() ? n.textValue() : n.isNull() ? null : UNSURE;
        }
        if (type == Integer.class || type == int.class) {
            boolean boxed = type == Integer.class;
            return n -> n.isInt() ? (Object) n.intValue() : boxed && n.isNull() ? null : UNSURE;
        }
        if (type == Long.class || type == long.class) {
            boolean boxed = type == Long.class;
            return n ->
                    n.isInt() || n.isLong()
                            ? (Object) n.longValue()
                            : boxed && n.isNull() ? null : UNSURE;
        }
        if (type == Double.class || type == double.class) {
            boolean boxed = type == Double.class;
            return n ->
                    n.isDouble() || n.isInt() || n.isLong()
                            ? (Object) n.doubleValue()
                            : boxed && n.isNull() ? null : UNSURE;
        }
        if (type == Boolean.class || type == boolean.class) {
            boolean boxed = type == Boolean.class;
            return n ->
                    n.isBoolean() ? (Object) n.booleanValue() : boxed && n.isNull() ? null : UNSURE;
        }
        if (type instanceof Class<?> c && c.isRecord()) {
            RecordBinder<?> nested = of(c, naming).orElse(null);
            return nested == null ? null : n -> n.isNull() ? null : nested.value(n);
        }
        if (type instanceof ParameterizedType p && p.getRawType() == List.class) {
            Conversion element = conversion(p.getActualTypeArguments()[0], naming);
            if (element == null
                    || p.getActualTypeArguments()[0] instanceof Class<?> e && e.isPrimitive()) {
                return null;
            }
            return n -> n.isNull() ? null : n.isArray() ? list(n, element) : UNSURE;
        }
        return null;
    }

    private static Object list(JsonNode array, Conversion element) {
        List<Object> out = new ArrayList<>(array.size());
        for (JsonNode item : array) {
            Object v = element.apply(item);
            if (v == UNSURE) {
                return UNSURE;
            }
            out.add(v);
        }
        return out;
    }

    /** Jackson's annotations (jackson-annotations, and databind's own such as @JsonDeserialize). */
    private static boolean isJackson(Class<?> annotation) {
        String p = annotation.getPackageName();
        return p.equals(JsonProperty.class.getPackageName())
                || p.equals(JsonDeserialize.class.getPackageName());
    }

    private static boolean onlyAnnotatedWith(Annotation[] annotations, Class<?>... allowed) {
        for (Annotation a : annotations) {
            boolean ok = false;
            for (Class<?> c : allowed) {
                ok |= c == a.annotationType();
            }
            if (!ok && isJackson(a.annotationType())) {
                return false;
            }
        }
        return true;
    }
}
