package org.longhaul.flink.records;

import com.fasterxml.jackson.annotation.JsonInclude;

/**
 * Where an incident's fault is (event.v4 {@code location}): a hop (a router address on the links'
 * paths, with its AS when the traceroute said), a destination site, or a source host.
 *
 * @param type {@link #HOP}, {@link #SITE} or {@link #HOST}
 * @param name the hop's address, or the site's or host's name as the links name it
 * @param asn the hop's AS number; null when unknown and for a site or host
 */
public record Location(
        String type, String name, @JsonInclude(JsonInclude.Include.ALWAYS) Long asn) {
    public static final String HOP = "hop";
    public static final String SITE = "site";
    public static final String HOST = "host";

    public static Location hop(String addr, Long asn) {
        return new Location(HOP, addr, asn);
    }

    public static Location site(String dst) {
        return new Location(SITE, dst, null);
    }

    public static Location host(String src) {
        return new Location(HOST, src, null);
    }

    /** A site or host: a place an operator owns, preferred over a hop that explains the same. */
    public boolean endpoint() {
        return !HOP.equals(type);
    }

    /** How a message names it: "hop 198.18.50.1 (AS 64512)", "site lyon.example", "host a". */
    public String label() {
        return type + " " + name + (asn == null ? "" : " (AS " + asn + ")");
    }

    /** One string per location, for maps and episode ids. */
    public String key() {
        return type + ":" + name;
    }
}
