package org.longhaul.flink.functions.common;

import java.util.Locale;

/** Numbers for humans in event messages: rates, sizes, durations, percentages. */
public final class Fmt {
    private Fmt() {}

    /** 2500000 → "2.5 Mbit/s", 5.11e9 → "5.11 Gbit/s". */
    public static String bps(double bps) {
        if (bps >= 1e9) {
            return num(bps / 1e9) + " Gbit/s";
        }
        if (bps >= 1e6) {
            return num(bps / 1e6) + " Mbit/s";
        }
        if (bps >= 1e3) {
            return num(bps / 1e3) + " kbit/s";
        }
        return num(bps) + " bit/s";
    }

    /** 65536 → "64 KiB", 1750000 → "1.67 MiB". */
    public static String bytes(double b) {
        if (b >= 1 << 30) {
            return num(b / (1 << 30)) + " GiB";
        }
        if (b >= 1 << 20) {
            return num(b / (1 << 20)) + " MiB";
        }
        if (b >= 1 << 10) {
            return num(b / (1 << 10)) + " KiB";
        }
        return num(b) + " B";
    }

    public static String ms(double ms) {
        return num(ms) + " ms";
    }

    public static String seconds(double s) {
        if (s >= 3600) {
            return num(s / 3600) + " h";
        }
        if (s >= 60) {
            return num(s / 60) + " min";
        }
        return num(s) + " s";
    }

    public static String percent(double p) {
        return num(p) + "%";
    }

    /** Three significant digits at most, no trailing zeros: 557, 39.6, 3.74, 0.153. */
    public static String num(double v) {
        if (v == 0 || !Double.isFinite(v)) {
            return v == 0 ? "0" : String.valueOf(v);
        }
        double a = Math.abs(v);
        int decimals = a >= 100 ? 0 : a >= 10 ? 1 : a >= 1 ? 2 : 3;
        String s = String.format(Locale.ROOT, "%." + decimals + "f", v);
        return s.contains(".") ? s.replaceAll("0+$", "").replaceAll("\\.$", "") : s;
    }

    /** Rounds for evidence: 4 significant digits keep the numbers readable and exact enough. */
    public static double round(double v) {
        if (v == 0 || !Double.isFinite(v)) {
            return v;
        }
        double scale = Math.pow(10, 3 - Math.floor(Math.log10(Math.abs(v))));
        return Math.round(v * scale) / scale;
    }
}
