package org.longhaul.flink.replay;

import java.io.IOException;
import java.io.InputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import org.longhaul.flink.jobs.Args;
import org.longhaul.flink.jobs.JobArgs;
import org.longhaul.flink.jobs.PipelineConfig;

/**
 * Offline replay: {@code Replay [--input FILE|-] [--stats] [pipeline and detector arguments]}. Runs
 * exactly the job graph of the Kafka job on an embedded MiniCluster over a file of JSON Lines raw
 * samples; prints every event as a JSON line on stdout (link_stats too with --stats) and every dead
 * letter on stderr; exits 0. Exit 2 on bad arguments or unreadable input, 1 if the job fails. Needs
 * no Kafka.
 */
public final class Replay {
    private Replay() {}

    public static void main(String[] argv) {
        if (System.getProperty("log4j2.configurationFile") == null
                && System.getProperty("log4j.configurationFile") == null) {
            System.setProperty("log4j2.configurationFile", "longhaul/replay-log4j2.properties");
        }
        System.exit(run(argv, System.in, System.out, System.err));
    }

    /** The whole command; returns the exit code. */
    public static int run(String[] argv, InputStream stdin, PrintStream out, PrintStream err) {
        if (Arrays.asList(argv).contains("--help") || Arrays.asList(argv).contains("-h")) {
            out.println(
                    "usage: Replay [--input FILE|-] [--stats] [--out-of-orderness 2min] [--<detector>.<param> value]...");
            return 0;
        }
        String input;
        boolean stats;
        PipelineConfig cfg;
        try {
            Args a = new Args(argv);
            input = a.string("input", "-");
            stats = a.flag("stats");
            cfg = JobArgs.pipeline(a);
            if (!a.has("stats-settle")) {
                // a replay runs at the machine's speed: only the watermark means anything
                cfg = cfg.withStatsSettle(null);
            }
            if (!a.has("confirm.enabled")) {
                // offline there is no agent to ask: requests would only expire unanswered
                cfg = cfg.withConfirmations(false);
            }
            a.requireAllKnown();
        } catch (IllegalArgumentException e) {
            err.println("replay: " + e.getMessage());
            return 2;
        }
        List<String> lines;
        try {
            lines = read(input, stdin);
        } catch (IOException e) {
            err.println("replay: cannot read input " + input + ": " + describe(e));
            return 2;
        }
        try {
            ReplayRunner.run(ReplayInput.route(lines, input), cfg, out, stats ? out : null, err);
        } catch (Exception e) {
            err.println("replay: the job failed: " + rootCause(e));
            return 1;
        }
        out.flush();
        return 0;
    }

    private static List<String> read(String input, InputStream stdin) throws IOException {
        if ("-".equals(input)) {
            return new String(stdin.readAllBytes(), StandardCharsets.UTF_8).lines().toList();
        }
        Path file = Path.of(input);
        if (Files.isDirectory(file)) {
            throw new IOException("is a directory");
        }
        return new String(Files.readAllBytes(file), StandardCharsets.UTF_8).lines().toList();
    }

    private static String describe(IOException e) {
        if (e instanceof java.nio.file.NoSuchFileException) {
            return "no such file";
        }
        if (e instanceof java.nio.file.AccessDeniedException) {
            return "permission denied";
        }
        return e.getMessage();
    }

    private static String rootCause(Throwable e) {
        Throwable t = e;
        while (t.getCause() != null) {
            t = t.getCause();
        }
        return t.getClass().getSimpleName() + ": " + t.getMessage();
    }
}
