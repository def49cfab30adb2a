package org.longhaul.flink.replay;

import static org.junit.jupiter.api.Assertions.assertDoesNotThrow;
import static org.junit.jupiter.api.Assertions.assertFalse;

import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class LocalFilesTest {
    @TempDir Path tmp;

    @Test
    void theLocalClustersFilesAreRemovedDepthFirst() throws Exception {
        Path root = tmp.resolve("longhaul-replay-1");
        Path shuffle = Files.createDirectories(root.resolve("flink-netty-shuffle-a/0"));
        Files.writeString(shuffle.resolve("spill"), "x");
        Files.writeString(root.resolve("blob"), "y");
        LocalFiles.deleteTree(root);
        assertFalse(Files.exists(root));
    }

    @Test
    void aTreeAlreadyRemovedByFlinksShutdownIsNoError() {
        // Flink's shutdown removes its netty shuffle directories on its own, possibly first
        assertDoesNotThrow(() -> LocalFiles.deleteTree(tmp.resolve("gone")));
    }
}
