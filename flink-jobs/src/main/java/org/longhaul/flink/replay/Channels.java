package org.longhaul.flink.replay;

import java.io.PrintStream;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Named output streams of this JVM. A sink running in an embedded MiniCluster is a deserialized
 * copy and cannot carry a {@link PrintStream}; it carries a channel name and looks it up here.
 */
public final class Channels {
    private static final Map<String, PrintStream> OPEN = new ConcurrentHashMap<>();

    private Channels() {}

    public static void open(String name, PrintStream out) {
        OPEN.put(name, out);
    }

    public static void close(String name) {
        PrintStream out = OPEN.remove(name);
        if (out != null) {
            out.flush();
        }
    }

    static PrintStream get(String name) {
        PrintStream out = OPEN.get(name);
        if (out == null) {
            throw new IllegalStateException("no output channel " + name + " in this JVM");
        }
        return out;
    }
}
