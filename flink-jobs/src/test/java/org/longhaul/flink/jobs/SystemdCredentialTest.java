package org.longhaul.flink.jobs;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.nio.file.Files;
import java.nio.file.Path;
import org.apache.kafka.common.config.ConfigException;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A bare --kafka-password-file name is a systemd credential (deploy/systemd): each of the Flink
 * units loads it into its own $CREDENTIALS_DIRECTORY, and the one name finds it on both.
 */
class SystemdCredentialTest {
    @TempDir Path jobmanager;
    @TempDir Path taskmanager;

    @Test
    void aBareNameIsReadFromTheUnitsCredentialsWhereverTheClientRuns() throws Exception {
        Files.writeString(jobmanager.resolve("kafka-flink.password"), "on-the-jobmanager\n");
        Files.writeString(taskmanager.resolve("kafka-flink.password"), "on-the-taskmanager");
        assertEquals(
                "on-the-jobmanager",
                SecretFileConfigProvider.read("kafka-flink.password", jobmanager.toString()));
        assertEquals(
                "on-the-taskmanager",
                SecretFileConfigProvider.read("kafka-flink.password", taskmanager.toString()));
    }

    @Test
    void aBareNameOutsideAUnitWithCredentialsSaysWhatIsMissing() {
        for (String none : new String[] {null, ""}) {
            var e =
                    assertThrows(
                            ConfigException.class,
                            () -> SecretFileConfigProvider.read("kafka-flink.password", none));
            assertEquals(
                    "kafka password file kafka-flink.password: a credential's name, but"
                            + " $CREDENTIALS_DIRECTORY is not set here (the unit's"
                            + " LoadCredential=kafka-flink.password:FILE)",
                    e.getMessage());
        }
    }

    @Test
    void aCredentialNotLoadedIsNamedWithItsFolder() {
        var e =
                assertThrows(
                        ConfigException.class,
                        () ->
                                SecretFileConfigProvider.read(
                                        "kafka-flink.password", jobmanager.toString()));
        assertEquals(
                "kafka password file "
                        + jobmanager.resolve("kafka-flink.password")
                        + ": no such file (on this host)",
                e.getMessage());
    }

    /** The job's arguments with the flink user and this --kafka-password-file. */
    private static JobArgs withPasswordFile(String passwordFile) {
        return JobArgs.parse(
                new String[] {
                    "--kafka", "127.0.0.1:1",
                    "--kafka-user", "flink",
                    "--kafka-password-file", passwordFile
                });
    }

    @Test
    void theJobTakesACredentialsNameButNoOtherRelativePath() {
        assertEquals(
                "kafka-flink.password",
                withPasswordFile("kafka-flink.password").kafka().security().passwordFile());
        var e =
                assertThrows(
                        IllegalArgumentException.class,
                        () -> withPasswordFile("secrets/kafka-flink.password"));
        assertEquals(true, e.getMessage().contains("--kafka-password-file: an absolute path"));
    }
}
