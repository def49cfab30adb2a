package org.longhaul.flink.records;

import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.JsonToken;
import com.fasterxml.jackson.core.StreamReadFeature;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.ObjectReader;
import com.fasterxml.jackson.databind.PropertyNamingStrategies;
import com.fasterxml.jackson.databind.json.JsonMapper;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.Optional;

/** The one JSON mapping of the contract: snake_case names, records by their components. */
public final class Json {
    /** Event times the contract accepts (epoch milliseconds; see $defs/epoch_ms). */
    public static final long MIN_TS = 100_000_000_000L;

    public static final long MAX_TS = 9_999_999_999_999L;

    private static final ObjectMapper MAPPER =
            JsonMapper.builder()
                    .propertyNamingStrategy(PropertyNamingStrategies.SNAKE_CASE)
                    .disable(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES)
                    .enable(DeserializationFeature.FAIL_ON_NULL_FOR_PRIMITIVES)
                    .build();

    /**
     * How raw messages are parsed: one whole JSON document each (trailing tokens refused), and
     * numbers with a fraction or an exponent read by FastDoubleParser, which gives the same double
     * as the JDK's parser (correctly rounded; JsonTest holds the two equal) in a fraction of its
     * time, a path sample carrying 45 of them. A key given twice in one object is refused (issue
     * 46): Jackson would keep the last copy and Telegraf's reader the first, so a path sample whose
     * first "src" was another site's passed the job and reached InfluxDB under that site's name.
     */
    private static final ObjectReader MESSAGES =
            MAPPER.reader()
                    .with(DeserializationFeature.FAIL_ON_TRAILING_TOKENS)
                    .with(StreamReadFeature.USE_FAST_DOUBLE_PARSER)
                    .with(StreamReadFeature.STRICT_DUPLICATE_DETECTION);

    /** Each type's binder, made once, from the mapper's own naming. */
    private static final ClassValue<Optional<RecordBinder<?>>> BINDERS =
            new ClassValue<>() {
                @Override
                protected Optional<RecordBinder<?>> computeValue(Class<?> type) {
                    return RecordBinder.of(
                                    type,
                                    MAPPER.getDeserializationConfig().getPropertyNamingStrategy())
                            .map(b -> b);
                }
            };

    private Json() {}

    public static ObjectMapper mapper() {
        return MAPPER;
    }

    /** The reader of raw messages (see {@link #MESSAGES}). */
    public static ObjectReader messages() {
        return MESSAGES;
    }

    public static <T> T read(String json, Class<T> type) {
        try {
            return MAPPER.readValue(json, type);
        } catch (JsonProcessingException e) {
            throw new IllegalArgumentException(
                    "cannot read " + type.getSimpleName() + ": " + e.getOriginalMessage(), e);
        }
    }

    /**
     * The record of type {@code type} for a parsed message: by its {@link RecordBinder} when the
     * fields are plainly of their types, otherwise (and for any other type) by the mapper.
     */
    public static <T> T convert(JsonNode node, Class<T> type) {
        RecordBinder<T> binder = binder(type);
        T bound = binder == null ? null : binder.bind(node);
        if (bound != null) {
            return bound;
        }
        try {
            return MAPPER.treeToValue(node, type);
        } catch (JsonProcessingException e) {
            throw new IllegalArgumentException(
                    "cannot read " + type.getSimpleName() + ": " + e.getOriginalMessage(), e);
        }
    }

    /**
     * A binder of {@code type} for objects given as the values of {@code names} in that order
     * ({@link FieldsBinder}), or null when the type has no {@link RecordBinder} (Jackson binds it).
     */
    public static <T> FieldsBinder<T> fieldsBinder(Class<T> type, String[] names) {
        RecordBinder<T> binder = binder(type);
        return binder == null ? null : binder.aligned(names);
    }

    /** The type's {@link RecordBinder}, or null when Jackson alone binds it. */
    @SuppressWarnings("unchecked")
    private static <T> RecordBinder<T> binder(Class<T> type) {
        return (RecordBinder<T>) BINDERS.get(type).orElse(null);
    }

    public static String write(Object value) {
        try {
            return MAPPER.writeValueAsString(value);
        } catch (JsonProcessingException e) {
            throw new UncheckedIOException(e);
        }
    }

    public static byte[] bytes(Object value) {
        try {
            return MAPPER.writeValueAsBytes(value);
        } catch (JsonProcessingException e) {
            throw new UncheckedIOException(e);
        }
    }

    /**
     * The top-level integer {@code ts} of a message if it is a plausible epoch-ms value, else null.
     */
    public static Long peekTs(String payload) {
        return payload == null || payload.isEmpty()
                ? null
                : peekTs(parser -> parser.createParser(payload));
    }

    /**
     * {@link #peekTs(String)} straight from the UTF-8 bytes (the Kafka value), without decoding
     * them first: by a plain scan of the fields before {@code ts} ({@link TsScan}), else by
     * Jackson.
     */
    public static Long peekTs(byte[] payload) {
        if (payload == null || payload.length == 0) {
            return null;
        }
        long scanned = TsScan.ts(payload);
        if (scanned != TsScan.UNSURE) {
            return scanned >= MIN_TS && scanned <= MAX_TS ? scanned : null;
        }
        return peekTsByParser(payload);
    }

    /** {@link #peekTs(byte[])} by Jackson alone: the judge of {@link TsScan}'s answers. */
    public static Long peekTsByParser(byte[] payload) {
        return payload == null || payload.length == 0
                ? null
                : peekTs(parser -> parser.createParser(payload));
    }

    /** A top-level string field of a message, or null when absent, not a string or not JSON. */
    public static String peekText(String payload, String field) {
        if (payload == null || payload.isEmpty()) {
            return null;
        }
        try (JsonParser p = MAPPER.getFactory().createParser(payload)) {
            return seek(p, field) == JsonToken.VALUE_STRING ? p.getText() : null;
        } catch (IOException e) {
            return null;
        }
    }

    private interface ParserOpener {
        JsonParser open(com.fasterxml.jackson.core.JsonFactory factory) throws IOException;
    }

    private static Long peekTs(ParserOpener opener) {
        try (JsonParser p = opener.open(MAPPER.getFactory())) {
            if (seek(p, "ts") != JsonToken.VALUE_NUMBER_INT
                    || p.getNumberType() == JsonParser.NumberType.BIG_INTEGER) {
                return null;
            }
            long v = p.getLongValue();
            return v >= MIN_TS && v <= MAX_TS ? v : null;
        } catch (IOException e) {
            return null;
        }
    }

    /**
     * Moves {@code p} onto the value of a top-level field without building a tree: returns the
     * value's token, or null when the message is no object or has no such field.
     */
    private static JsonToken seek(JsonParser p, String field) throws IOException {
        if (p.nextToken() != JsonToken.START_OBJECT) {
            return null;
        }
        while (p.nextToken() == JsonToken.FIELD_NAME) {
            String name = p.currentName();
            JsonToken value = p.nextToken();
            if (field.equals(name)) {
                return value;
            }
            if (value == JsonToken.START_OBJECT || value == JsonToken.START_ARRAY) {
                p.skipChildren();
            }
        }
        return null;
    }
}
