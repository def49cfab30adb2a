package org.longhaul.flink.state;

/**
 * The type of the job's state keys: strings (a link, a destination, a source host...) whose
 * serializer writes each key in one call ({@link LinkKeySerializer}). Every {@code keyBy} of the
 * job uses it instead of {@code Types.STRING}.
 */
public final class LinkKeyType extends WholeType<String> {
    private static final long serialVersionUID = 1L;

    public static final LinkKeyType INSTANCE = new LinkKeyType();

    private LinkKeyType() {
        super(String.class, true, "LinkKey(String)", LinkKeySerializer::new);
    }

    private Object readResolve() {
        return INSTANCE;
    }
}
