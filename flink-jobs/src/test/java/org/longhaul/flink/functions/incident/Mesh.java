package org.longhaul.flink.functions.incident;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.longhaul.flink.records.Links;

/** A small mesh of link views for the localiser's and the book's tests. */
final class Mesh {
    static final long NOW = 1_700_000_000_000L;
    final Map<String, LinkView> links = new LinkedHashMap<>();

    /** A link over these hops (AS 64500 + hop index), its last good run a minute ago. */
    Mesh link(String src, String dst, String... hops) {
        LinkView v = new LinkView(src, dst);
        List<Long> asns = new ArrayList<>();
        List<Integer> ttls = new ArrayList<>();
        for (int i = 0; i < hops.length; i++) {
            asns.add(64500L + i);
            ttls.add(i + 1);
        }
        v.apply(
                new IncidentInput(
                        IncidentInput.Type.PATH,
                        src,
                        dst,
                        NOW - 120_000,
                        null,
                        null,
                        null,
                        true,
                        Arrays.asList(hops),
                        asns,
                        ttls));
        v.apply(IncidentInput.good(src, dst, NOW - 60_000));
        links.put(Links.key(src, dst), v);
        return this;
    }

    Mesh degrade(String src, String dst, String kind) {
        links.get(Links.key(src, dst))
                .apply(
                        new IncidentInput(
                                IncidentInput.Type.ALERT_OPEN,
                                src,
                                dst,
                                NOW - 30_000,
                                kind,
                                kind + "-" + src + "-" + dst,
                                "critical",
                                false,
                                null,
                                null,
                                null));
        return this;
    }
}
