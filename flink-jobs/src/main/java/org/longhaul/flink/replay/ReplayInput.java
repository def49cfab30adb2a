package org.longhaul.flink.replay;

import java.util.ArrayList;
import java.util.List;
import org.longhaul.flink.records.Contract;
import org.longhaul.flink.records.Json;
import org.longhaul.flink.records.RawMessage;

/**
 * JSON Lines of raw samples (as `longhaul-probe parse` writes them) split by the schema each line
 * names into the five raw streams, as if each had been published to its topic. A line that names no
 * raw schema (or is not JSON) still goes through validation, on the throughput stream, so it
 * becomes a dead letter like any bad message. Offsets are line numbers (1-based). Each stream is
 * replayed in run order ({@link RunOrder}), whatever the order of the file.
 */
public record ReplayInput(
        List<RawMessage> throughput,
        List<RawMessage> path,
        List<RawMessage> rtt,
        List<RawMessage> latency,
        List<RawMessage> host) {

    public static ReplayInput route(List<String> lines, String inputName) {
        ReplayInput in =
                new ReplayInput(
                        new ArrayList<>(),
                        new ArrayList<>(),
                        new ArrayList<>(),
                        new ArrayList<>(),
                        new ArrayList<>());
        for (int i = 0; i < lines.size(); i++) {
            String line = lines.get(i);
            if (line.isBlank()) {
                continue;
            }
            String topic = Contract.rawTopicOf(Json.peekText(line, "schema"));
            RawMessage m =
                    RawMessage.of(
                            topic == null ? "replay:" + inputName : topic,
                            null,
                            (long) i + 1,
                            line);
            in.streamOf(topic).add(m);
        }
        return new ReplayInput(
                RunOrder.of(in.throughput),
                RunOrder.of(in.path),
                RunOrder.of(in.rtt),
                RunOrder.of(in.latency),
                RunOrder.of(in.host));
    }

    private List<RawMessage> streamOf(String topic) {
        if (Contract.TOPIC_PATH.equals(topic)) {
            return path;
        }
        if (Contract.TOPIC_RTT.equals(topic)) {
            return rtt;
        }
        if (Contract.TOPIC_LATENCY.equals(topic)) {
            return latency;
        }
        if (Contract.TOPIC_HOST.equals(topic)) {
            return host;
        }
        return throughput;
    }

    public int size() {
        return throughput.size() + path.size() + rtt.size() + latency.size() + host.size();
    }
}
