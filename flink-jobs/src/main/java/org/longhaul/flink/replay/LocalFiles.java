package org.longhaul.flink.replay;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.DirectoryNotEmptyException;
import java.nio.file.FileVisitResult;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.SimpleFileVisitor;
import java.nio.file.attribute.BasicFileAttributes;

/** The files a local Flink cluster leaves (the replay's, the benches' and tests' embedded ones). */
public final class LocalFiles {
    private LocalFiles() {}

    /**
     * Removes the local cluster's files. Flink's own shutdown may still be removing some of them
     * (its netty shuffle directories), so a file gone meanwhile is not an error; what cannot be
     * removed stays (a temporary directory), as a failed cleanup must not fail the replay.
     */
    public static void deleteTree(Path dir) {
        try {
            Files.walkFileTree(
                    dir,
                    new SimpleFileVisitor<>() {
                        @Override
                        public FileVisitResult visitFile(Path file, BasicFileAttributes attrs)
                                throws IOException {
                            Files.deleteIfExists(file);
                            return FileVisitResult.CONTINUE;
                        }

                        @Override
                        public FileVisitResult visitFileFailed(Path file, IOException e)
                                throws IOException {
                            if (e instanceof NoSuchFileException) {
                                return FileVisitResult.CONTINUE;
                            }
                            throw e;
                        }

                        @Override
                        public FileVisitResult postVisitDirectory(Path d, IOException e)
                                throws IOException {
                            if (e != null && !(e instanceof NoSuchFileException)) {
                                throw e;
                            }
                            try {
                                Files.deleteIfExists(d);
                            } catch (DirectoryNotEmptyException filledMeanwhile) {
                                // written to by a shutdown still under way: left for the OS to
                                // clean
                            }
                            return FileVisitResult.CONTINUE;
                        }
                    });
        } catch (NoSuchFileException gone) {
            // nothing left to remove
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
