package org.longhaul.flink.records;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.longhaul.flink.testing.ContractFiles;
import org.longhaul.flink.validate.SchemaRegistry;

/**
 * The job writes the traces it validated to the paths topic, for Telegraf: each as a valid
 * path_sample of the version producers write, keyed by its link, with the hops Telegraf reads.
 */
class PathsTopicTest {
    @Test
    void everyValidTraceGoesOutAsAValidPathSampleKeyedByItsLink() throws IOException {
        var serializer =
                new JsonKafkaSerializer<PathSample>(Contract.TOPIC_PATHS, PathSample::link);
        int n = 0;
        for (Path f : ContractFiles.examples(Contract.PATH, "valid")) {
            PathSample in = Json.mapper().readValue(f.toFile(), PathSample.class);
            var out = serializer.serialize(in, null, null);
            assertEquals(Contract.TOPIC_PATHS, out.topic());
            assertEquals(in.src() + "|" + in.dst(), new String(out.key(), StandardCharsets.UTF_8));
            var node = Json.mapper().readTree(out.value());
            assertEquals(
                    List.of(),
                    SchemaRegistry.bundled().problems(Contract.PATH, node),
                    f.toString());
            assertEquals(in, Json.mapper().treeToValue(node, PathSample.class), f.toString());
            assertEquals(in.hops().size(), node.get("hops").size());
            n++;
        }
        assertTrue(n > 0, "no valid path_sample examples");
    }
}
