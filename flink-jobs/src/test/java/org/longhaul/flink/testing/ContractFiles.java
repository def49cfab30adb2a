package org.longhaul.flink.testing;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import org.longhaul.flink.records.Contract;

/** Where the committed contract lives in the repository (ingest/, ingest/schemas), for tests. */
public final class ContractFiles {
    private ContractFiles() {}

    public static Path schemasDir() {
        Path dir = Path.of(System.getProperty("longhaul.contract.dir", "../ingest/schemas"));
        if (!Files.isDirectory(dir)) {
            throw new IllegalStateException("contract not found at " + dir.toAbsolutePath());
        }
        return dir;
    }

    /** ingest/: contract.yaml and topics.yaml, beside the schemas. */
    public static Path ingestDir() {
        return schemasDir().toAbsolutePath().normalize().getParent();
    }

    public static Path examplesDir() {
        return schemasDir().resolve("examples");
    }

    /**
     * The example files of {@code schema} ("throughput_sample.v2") of a kind ("valid", "invalid"),
     * sorted; none when its folder is missing.
     */
    public static List<Path> examples(String schema, String kind) throws IOException {
        Path dir = examplesDir().resolve(schema).resolve(kind);
        if (!Files.isDirectory(dir)) {
            return List.of();
        }
        try (Stream<Path> files = Files.list(dir)) {
            return files.filter(f -> f.toString().endsWith(".json")).sorted().toList();
        }
    }

    /**
     * Every example file of a kind of the schemas the job knows ({@link Contract#ALL_VERSIONS}),
     * schema by schema in name order. The others (psbridge_seen: what the pScheduler bridges share
     * among themselves) the job never reads; Go and Python check their examples.
     */
    public static List<Path> examples(String kind) throws IOException {
        List<Path> out = new ArrayList<>();
        try (Stream<Path> dirs = Files.list(examplesDir())) {
            for (Path dir : dirs.sorted().toList()) {
                String schema = dir.getFileName().toString();
                if (Contract.ALL_VERSIONS.contains(schema)) {
                    out.addAll(examples(schema, kind));
                }
            }
        }
        return out;
    }

    /** The schema an example file is filed under: examples/<schema>/<kind>/<file>. */
    public static String schemaOf(Path example) {
        return example.getParent().getParent().getFileName().toString();
    }
}
