package org.longhaul.flink.jobs;

import java.io.Serializable;
import java.nio.file.Path;
import java.util.Locale;
import java.util.Properties;

/**
 * How the job authenticates to Kafka: TLS with SCRAM-SHA-512 unless an argument says otherwise.
 * Holds the password file's path, never the password: the Kafka clients read the file themselves,
 * where they run (JobManager and TaskManagers), through {@link SecretFileConfigProvider}, so the
 * password is in neither the arguments, the job graph, nor this record's toString.
 *
 * @param mode sasl_ssl (TLS + SCRAM-SHA-512), ssl (TLS only) or plaintext
 * @param caFile PEM of the CA that signed the brokers' certificates, or null for the JVM's default
 *     trust store
 * @param user SCRAM user (sasl_ssl only)
 * @param passwordFile file holding that user's password (sasl_ssl only): an absolute path, or the
 *     bare name of a systemd credential of the JobManager's and TaskManagers' units
 *     (LoadCredential=NAME:FILE; deploy/systemd)
 */
public record KafkaSecurity(Mode mode, String caFile, String user, String passwordFile)
        implements Serializable {

    /** The security modes, spelled as every Longhaul program's --kafka-security spells them. */
    public enum Mode {
        SASL_SSL,
        SSL,
        PLAINTEXT;

        static Mode parse(String v) {
            return switch (v) {
                case "sasl_ssl" -> SASL_SSL;
                case "ssl" -> SSL;
                case "plaintext" -> PLAINTEXT;
                default ->
                        throw new IllegalArgumentException(
                                "--kafka-security: sasl_ssl, ssl or plaintext, not " + v);
            };
        }

        @Override
        public String toString() {
            return name().toLowerCase(Locale.ROOT);
        }
    }

    /** The name under which the clients' config resolves ${secretfile:FILE:jaas}. */
    static final String PROVIDER = "secretfile";

    /** Checks every combination when the job starts, so a mistake never waits for a connection. */
    public KafkaSecurity {
        if (mode == null) {
            throw new IllegalArgumentException("--kafka-security: sasl_ssl, ssl or plaintext");
        }
        if (mode == Mode.PLAINTEXT && (caFile != null || user != null || passwordFile != null)) {
            throw new IllegalArgumentException(
                    "--kafka-security plaintext takes no --kafka-ca, --kafka-user or "
                            + "--kafka-password-file (they need ssl or sasl_ssl)");
        }
        if (mode == Mode.SSL && (user != null || passwordFile != null)) {
            throw new IllegalArgumentException(
                    "--kafka-user and --kafka-password-file need --kafka-security sasl_ssl, not ssl");
        }
        if (mode == Mode.SASL_SSL && (user == null || passwordFile == null)) {
            throw new IllegalArgumentException(
                    "--kafka-security sasl_ssl (the default) needs --kafka-user and "
                            + "--kafka-password-file (or --kafka-security plaintext, explicitly insecure)");
        }
        if (caFile != null) {
            requireAbsolute("--kafka-ca", caFile);
        }
        if (passwordFile != null) {
            if (passwordFile.contains("/")) {
                requireAbsolute("--kafka-password-file", passwordFile);
            } // else a systemd credential's name (SecretFileConfigProvider)
            // ${provider:path:key}: Kafka's variable syntax ends the path at ':' and the variable
            // at '}'
            if (passwordFile.contains(":") || passwordFile.contains("}")) {
                throw new IllegalArgumentException(
                        "--kafka-password-file: a path without ':' or '}', not " + passwordFile);
            }
        }
    }

    /**
     * --kafka-security, --kafka-ca, --kafka-user, --kafka-password-file (and a refusal of
     * --kafka-password).
     */
    public static KafkaSecurity parse(Args a) {
        if (a.string("kafka-password", null) != null) {
            throw new IllegalArgumentException(
                    "--kafka-password is not taken: a command line ends up in the job graph, "
                            + "the web UI and logs; give --kafka-password-file, a file on the JobManager and TaskManager hosts");
        }
        return new KafkaSecurity(
                Mode.parse(a.string("kafka-security", "sasl_ssl")),
                a.string("kafka-ca", null),
                a.string("kafka-user", null),
                a.string("kafka-password-file", null));
    }

    /** Connecting without TLS or authentication: tests of a plaintext broker. */
    public static KafkaSecurity plaintext() {
        return new KafkaSecurity(Mode.PLAINTEXT, null, null, null);
    }

    /**
     * The Kafka client properties for this security, the same for every consumer, producer and
     * admin client of the job. The password appears only as a variable that the client resolves
     * from the file when it starts.
     */
    public Properties clientProperties() {
        Properties p = new Properties();
        p.setProperty("security.protocol", mode.name());
        if (mode == Mode.PLAINTEXT) {
            return p;
        }
        if (caFile != null) {
            p.setProperty("ssl.truststore.type", "PEM");
            p.setProperty("ssl.truststore.location", caFile);
        }
        if (mode == Mode.SASL_SSL) {
            p.setProperty("sasl.mechanism", "SCRAM-SHA-512");
            p.setProperty("config.providers", PROVIDER);
            p.setProperty(
                    "config.providers." + PROVIDER + ".class",
                    SecretFileConfigProvider.class.getName());
            p.setProperty(
                    "sasl.jaas.config",
                    "org.apache.kafka.common.security.scram.ScramLoginModule required"
                            + " username=\""
                            + SecretFileConfigProvider.jaasQuoted(user)
                            + "\""
                            + " password=\"${"
                            + PROVIDER
                            + ":"
                            + passwordFile
                            + ":"
                            + SecretFileConfigProvider.JAAS
                            + "}\";");
        }
        return p;
    }

    private static void requireAbsolute(String arg, String file) {
        if (!Path.of(file).isAbsolute()) {
            throw new IllegalArgumentException(
                    arg
                            + ": an absolute path (it is read on the JobManager and TaskManager "
                            + "hosts, whose working directory is not yours), not "
                            + file);
        }
    }
}
