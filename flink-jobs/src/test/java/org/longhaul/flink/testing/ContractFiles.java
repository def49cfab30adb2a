package org.longhaul.flink.testing;

import java.nio.file.Files;
import java.nio.file.Path;

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
}
