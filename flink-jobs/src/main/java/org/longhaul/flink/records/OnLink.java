package org.longhaul.flink.records;

/** A message about one link, src → dst, keyed by it on its topic like every Longhaul message. */
public interface OnLink {
    String src();

    String dst();

    /** The link's key, "src|dst" ({@link Links#key}). */
    default String link() {
        return Links.key(src(), dst());
    }
}
