package org.longhaul.flink.it;

import static org.junit.jupiter.api.Assertions.fail;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Properties;
import org.longhaul.flink.jobs.KafkaSecurity;

/**
 * The native stack's Kafka as its environment describes it (scripts/stack/defaults.env, with
 * scripts/test-all.sh giving the tests the admin user): the test's own clients connect as
 * LONGHAUL_KAFKA_USER, the job as its own user, flink, whose password file is in
 * LONGHAUL_SECRETS_DIR — the arguments `longhaul job submit` gives it.
 */
record StackKafka(
        String bootstrap,
        KafkaSecurity.Mode mode,
        String caFile,
        String user,
        String passwordFile,
        String secretsDir) {
    static final String JOB_USER = "flink";

    static StackKafka fromEnv() {
        KafkaSecurity.Mode mode =
                KafkaSecurity.Mode.valueOf(
                        optional("LONGHAUL_KAFKA_SECURITY", "sasl_ssl").toUpperCase());
        if (mode == KafkaSecurity.Mode.PLAINTEXT) {
            return new StackKafka(env("LONGHAUL_KAFKA"), mode, null, null, null, null);
        }
        String ca = optional("LONGHAUL_KAFKA_CA", null);
        if (mode == KafkaSecurity.Mode.SSL) {
            return new StackKafka(env("LONGHAUL_KAFKA"), mode, ca, null, null, null);
        }
        return new StackKafka(
                env("LONGHAUL_KAFKA"),
                mode,
                ca,
                env("LONGHAUL_KAFKA_USER"),
                env("LONGHAUL_KAFKA_PASSWORD_FILE"),
                env("LONGHAUL_SECRETS_DIR"));
    }

    boolean scram() {
        return mode == KafkaSecurity.Mode.SASL_SSL;
    }

    /** bootstrap.servers and the security of the test's own clients. */
    Properties testClients() {
        Properties p = new KafkaSecurity(mode, caFile, user, passwordFile).clientProperties();
        p.put("bootstrap.servers", bootstrap);
        return p;
    }

    /**
     * The job's Kafka arguments, as the job's own user (with this password file, under sasl_ssl).
     */
    List<String> jobArgs(String jobPasswordFile) {
        List<String> a =
                new ArrayList<>(List.of("--kafka", bootstrap, "--kafka-security", mode.toString()));
        if (caFile != null) {
            a.addAll(List.of("--kafka-ca", caFile));
        }
        if (scram()) {
            a.addAll(List.of("--kafka-user", JOB_USER, "--kafka-password-file", jobPasswordFile));
        }
        return a;
    }

    /** The job's own password file on the stack. */
    String jobPasswordFile() {
        return Path.of(secretsDir, "kafka-" + JOB_USER + ".password").toString();
    }

    static String env(String name) {
        String v = System.getenv(name);
        if (v == null || v.isBlank()) {
            fail(
                    name
                            + " is not set: this integration test needs the native stack (scripts/stack/up.sh) and its "
                            + "environment (scripts/stack/defaults.env; the tests run as admin: scripts/test-all.sh), e.g. "
                            + "LONGHAUL_KAFKA=127.0.0.1:9092 LONGHAUL_FLINK=https://127.0.0.1:8081");
        }
        return v;
    }

    private static String optional(String name, String dflt) {
        String v = System.getenv(name);
        return v == null || v.isBlank() ? dflt : v;
    }
}
