package org.longhaul.flink.bench;

import com.fasterxml.jackson.databind.JsonNode;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import org.apache.flink.api.common.serialization.SerializerConfigImpl;
import org.apache.flink.api.common.typeinfo.TypeInformation;
import org.apache.flink.api.common.typeutils.TypeSerializer;
import org.apache.flink.api.common.typeutils.base.StringSerializer;
import org.apache.flink.core.memory.DataOutputViewStreamWrapper;
import org.apache.flink.runtime.state.SnappyStreamCompressionDecorator;
import org.longhaul.flink.functions.DropReplayed;
import org.longhaul.flink.functions.LinkedFingerprints;
import org.longhaul.flink.functions.RecentFingerprints;
import org.longhaul.flink.functions.stats.LinkAccumulator;
import org.longhaul.flink.records.Contract;
import org.longhaul.flink.records.Json;
import org.longhaul.flink.records.Links;
import org.longhaul.flink.records.PathSample;
import org.longhaul.flink.records.RawMessage;
import org.longhaul.flink.records.ThroughputSample;
import org.longhaul.flink.state.LinkKeyType;
import org.longhaul.flink.state.OneWriteType;
import org.longhaul.flink.validate.MessageValidator;
import org.longhaul.flink.validate.SchemaRegistry;

/**
 * CPU per raw message of the job's hot path, one stage at a time, on one thread (no Flink, no
 * Kafka): peek of ts, whole parse, schema validation, binding; then the replay filter's memory and
 * the cost of writing each message's link key and a window accumulator into a compressed heap
 * snapshot, each against the structure it replaced. Prints ns per message and messages per second
 * per core. Input: JSON Lines from {@code longhaul-bench-gen -print}.
 *
 * <pre>bash bench/hotpath.sh [ROUNDS]</pre>
 */
public final class HotPathBench {
    private HotPathBench() {}

    public static void main(String[] args) throws Exception {
        List<byte[]> lines =
                Files.readAllLines(Path.of(args[0])).stream()
                        .map(l -> l.getBytes(StandardCharsets.UTF_8))
                        .toList();
        int rounds = args.length > 1 ? Integer.parseInt(args[1]) : 30;
        MessageValidator validator = new MessageValidator(SchemaRegistry.bundled(), "bench");
        var tree = Json.mapper().reader();
        var registry = SchemaRegistry.bundled();
        Map<byte[], JsonNode> trees = new IdentityHashMap<>();
        Map<byte[], String> keys = new IdentityHashMap<>();
        Map<byte[], LinkAccumulator> accs = new IdentityHashMap<>();
        for (byte[] line : lines) {
            trees.put(line, tree.readTree(line));
            keys.put(line, keyOf(Json.convert(trees.get(line), typeOf(line))));
            accs.put(line, minuteOf(accs.size()));
        }
        for (int warm = 0; warm < 2; warm++) {
            boolean print = warm == 1;
            run(
                    print,
                    "peek ts (bytes, Jackson's parser, before)",
                    lines,
                    rounds,
                    b -> Json.peekTsByParser(b));
            run(print, "peek ts (bytes, TsScan)", lines, rounds, b -> Json.peekTs(b));
            run(print, "parse tree (bytes)", lines, rounds, tree::readTree);
            run(
                    print,
                    "parse tree (String)",
                    lines,
                    rounds,
                    b -> tree.readTree(new String(b, StandardCharsets.UTF_8)));
            run(
                    print,
                    "parse tree (bytes, Json.messages: fast doubles)",
                    lines,
                    rounds,
                    Json.messages()::readTree);
            run(
                    print,
                    "validate a tree (networknt alone)",
                    lines,
                    rounds,
                    b -> registry.networkntProblems(schemaOf(b), trees.get(b)));
            run(
                    print,
                    "validate a tree (compiled, then networknt)",
                    lines,
                    rounds,
                    b -> registry.problems(schemaOf(b), trees.get(b)));
            run(
                    print,
                    "parse + validate (networknt alone)",
                    lines,
                    rounds,
                    b -> registry.networkntProblems(schemaOf(b), tree.readTree(b)));
            run(
                    print,
                    "parse + validate (compiled, then networknt)",
                    lines,
                    rounds,
                    b -> registry.problems(schemaOf(b), tree.readTree(b)));
            run(
                    print,
                    "parse + bind (Jackson databind, before)",
                    lines,
                    rounds,
                    b -> Json.mapper().treeToValue(tree.readTree(b), typeOf(b)));
            run(
                    print,
                    "parse + bind (RecordBinder)",
                    lines,
                    rounds,
                    b -> Json.convert(tree.readTree(b), typeOf(b)));
            run(
                    print,
                    "whole check, tree path (before)",
                    lines,
                    rounds,
                    b ->
                            validator.checkTree(
                                    RawMessage.of("t", 0, 0L, b), schemaOf(b), typeOf(b), 0L));
            run(
                    print,
                    "whole check (RawMessage → record, one pass)",
                    lines,
                    rounds,
                    b -> validator.check(RawMessage.of("t", 0, 0L, b), schemaOf(b), typeOf(b), 0L));
            // the replay filter: every message's fingerprint remembered, the oldest of 20k evicted
            // (a counter keeps each pass's fingerprints new, as a live stream's are)
            long[] next = {0};
            RecentFingerprints recent = new RecentFingerprints(DropReplayed.DEFAULT_CAPACITY);
            LinkedFingerprints linked = new LinkedFingerprints(DropReplayed.DEFAULT_CAPACITY);
            run(
                    print,
                    "fingerprint of the payload (FNV-1a)",
                    lines,
                    rounds,
                    RecentFingerprints::of);
            run(
                    print,
                    "replay filter (LinkedHashSet<Long>, before)",
                    lines,
                    rounds,
                    b -> linked.add(RecentFingerprints.of(b) + next[0]++));
            run(
                    print,
                    "replay filter (RecentFingerprints)",
                    lines,
                    rounds,
                    b -> recent.add(RecentFingerprints.of(b) + next[0]++));
            // each message's link key written as the heap backend writes state and timer keys
            // into a checkpoint: a DataOutputStream over Flink's Snappy stream
            DataOutputViewStreamWrapper snapshot =
                    new DataOutputViewStreamWrapper(
                            SnappyStreamCompressionDecorator.INSTANCE.decorateWithCompression(
                                    OutputStream.nullOutputStream()));
            TypeSerializer<String> linkKeys =
                    LinkKeyType.INSTANCE.createSerializer(new SerializerConfigImpl());
            run(
                    print,
                    "key into a snapshot (Types.STRING, before)",
                    lines,
                    rounds,
                    b -> write(StringSerializer.INSTANCE, keys.get(b), snapshot));
            run(
                    print,
                    "key into a snapshot (LinkKeyType)",
                    lines,
                    rounds,
                    b -> write(linkKeys, keys.get(b), snapshot));
            // and a window accumulator (a minute of a link's intervals) per message, as state
            // values go
            TypeSerializer<LinkAccumulator> pojo =
                    TypeInformation.of(LinkAccumulator.class)
                            .createSerializer(new SerializerConfigImpl());
            TypeSerializer<LinkAccumulator> oneWrite =
                    OneWriteType.of(LinkAccumulator.class)
                            .createSerializer(new SerializerConfigImpl());
            run(
                    print,
                    "accumulator into a snapshot (POJO, before)",
                    lines,
                    rounds,
                    b -> write(pojo, accs.get(b), snapshot));
            run(
                    print,
                    "accumulator into a snapshot (OneWriteType)",
                    lines,
                    rounds,
                    b -> write(oneWrite, accs.get(b), snapshot));
        }
    }

    interface Stage {
        Object apply(byte[] line) throws Exception;
    }

    private static void run(boolean print, String name, List<byte[]> lines, int rounds, Stage stage)
            throws Exception {
        long sink = 0;
        long t0 = System.nanoTime();
        for (int r = 0; r < rounds; r++) {
            for (byte[] line : lines) {
                Object o = stage.apply(line);
                sink += o == null ? 0 : 1;
            }
        }
        double ns = (System.nanoTime() - t0) / (double) (rounds * lines.size());
        if (print) {
            System.out.printf(
                    "%-44s %8.0f ns/msg %10.0f msg/s/core  (%d)%n", name, ns, 1e9 / ns, sink);
        }
    }

    private static String keyOf(Object record) {
        return record instanceof PathSample p
                ? Links.key(p.src(), p.dst())
                : ((ThroughputSample) record).link();
    }

    private static <T> Object write(TypeSerializer<T> s, T value, DataOutputViewStreamWrapper out)
            throws IOException {
        s.serialize(value, out);
        return value;
    }

    /** A 1m window's accumulator of a link with 60 intervals of about the same rate (±30 %). */
    private static LinkAccumulator minuteOf(int link) {
        Random noise = new Random(link);
        double capacity = 1e7 * (1 + link % 1000);
        LinkAccumulator acc = new LinkAccumulator();
        for (int i = 0; i < 60; i++) {
            double bps = capacity * (0.7 + 0.6 * noise.nextDouble());
            acc.samples++;
            acc.throughputCount++;
            acc.throughputSum += bps;
            acc.throughputMax = Math.max(acc.throughputMax, bps);
            acc.throughput.add(bps);
        }
        return acc;
    }

    private static boolean isPath(byte[] line) {
        return line.length > 12 && line[11] == 'p';
    }

    private static String schemaOf(byte[] line) {
        return isPath(line) ? Contract.PATH : Contract.THROUGHPUT;
    }

    private static Class<?> typeOf(byte[] line) {
        return isPath(line) ? PathSample.class : ThroughputSample.class;
    }
}
