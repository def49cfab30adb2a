package org.longhaul.flink.records;

/** The Kafka key and the keyed-state key of a link: "src|dst" (ingest/topics.yaml). */
public final class Links {
    private Links() {}

    public static String key(String src, String dst) {
        return src + "|" + dst;
    }

    public static String key(String src, String dst, String qualifier) {
        return src + "|" + dst + "|" + qualifier;
    }
}
