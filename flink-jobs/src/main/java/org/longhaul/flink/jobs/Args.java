package org.longhaul.flink.jobs;

import java.time.Duration;
import java.util.HashMap;
import java.util.HashSet;
import java.util.Map;
import java.util.Set;
import org.apache.flink.util.ParameterTool;
import org.apache.flink.util.TimeUtils;

/**
 * Typed access to "--name value" arguments (Flink's ParameterTool) that remembers which names were
 * asked for, so an unknown or misspelt argument is reported instead of silently ignored. Durations
 * take Flink's syntax: "5 s", "2min", "7d", "500ms" (a bare number is milliseconds).
 */
public final class Args {
    private final ParameterTool params;
    private final Set<String> known = new HashSet<>();

    public Args(String[] argv) {
        this.params = ParameterTool.fromArgs(argv);
    }

    public String string(String name, String dflt) {
        known.add(name);
        String v = params.get(name);
        return v == null || v.isEmpty() ? dflt : v;
    }

    /** Whether the command line gives the argument at all. */
    public boolean has(String name) {
        known.add(name);
        return params.has(name);
    }

    public boolean flag(String name) {
        known.add(name);
        return params.has(name) && !"false".equals(params.get(name));
    }

    public long integer(String name, long dflt) {
        String v = string(name, null);
        try {
            return v == null ? dflt : Long.parseLong(v.trim());
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException("--" + name + ": not an integer: " + v);
        }
    }

    public double number(String name, double dflt) {
        String v = string(name, null);
        try {
            return v == null ? dflt : Double.parseDouble(v.trim());
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException("--" + name + ": not a number: " + v);
        }
    }

    public Duration duration(String name, Duration dflt) {
        String v = string(name, null);
        try {
            return v == null ? dflt : TimeUtils.parseDuration(v.trim());
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException(
                    "--" + name + ": not a duration (e.g. 30s, 2min, 7d): " + v);
        }
    }

    /** "src|dst=value,src|dst=value" per-link overrides of a numeric threshold. */
    public Map<String, Double> overrides(String name) {
        String v = string(name, "");
        Map<String, Double> out = new HashMap<>();
        for (String item : v.split(",")) {
            if (item.isBlank()) {
                continue;
            }
            int eq = item.lastIndexOf('=');
            if (eq <= 0 || !item.substring(0, eq).contains("|")) {
                throw new IllegalArgumentException(
                        "--" + name + ": expected src|dst=value, got " + item);
            }
            try {
                out.put(
                        item.substring(0, eq).trim(),
                        Double.parseDouble(item.substring(eq + 1).trim()));
            } catch (NumberFormatException e) {
                throw new IllegalArgumentException("--" + name + ": not a number in " + item);
            }
        }
        return Map.copyOf(out);
    }

    /** Fails on any argument no reader asked for. Call after reading everything. */
    public void requireAllKnown() {
        for (String name : params.toMap().keySet()) {
            if (!known.contains(name)) {
                throw new IllegalArgumentException("unknown argument --" + name);
            }
        }
    }
}
