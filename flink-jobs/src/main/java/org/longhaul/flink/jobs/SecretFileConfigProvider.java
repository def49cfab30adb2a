package org.longhaul.flink.jobs;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.AccessDeniedException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.Map;
import java.util.Set;
import org.apache.kafka.common.config.ConfigData;
import org.apache.kafka.common.config.ConfigException;
import org.apache.kafka.common.config.provider.ConfigProvider;

/**
 * A Kafka config provider (KIP-297) that reads a password file where the client runs: a Kafka
 * client configured with {@code config.providers=secretfile}, {@code
 * config.providers.secretfile.class=} this class resolves {@code
 * password="${secretfile:/path/to/file:jaas}"} when it starts, so the password never travels in the
 * job's arguments or graph.
 *
 * <p>Why not Kafka's own DirectoryConfigProvider: it keeps a trailing newline as part of the
 * password ({@code Files.readString}), which an {@code echo pw > file} adds, and an absent file
 * leaves the variable unresolved, so the client sends {@code ${dir:…}} as the password and the
 * broker answers "invalid credentials". Here the file is read like every Longhaul program reads one
 * (internal/settings.Secret): trailing CR/LF dropped, an empty file is an error, and every error
 * names the file, never its content.
 *
 * <p>Kafka clients 3.8+ load providers only from the classes listed in the system property {@code
 * org.apache.kafka.automatic.config.providers} when it is set; unset (the default, also in
 * kafka-clients 4.2), every provider is allowed.
 */
public final class SecretFileConfigProvider implements ConfigProvider {
    /** The key: the file's content, escaped for a double-quoted value of a JAAS configuration. */
    public static final String JAAS = "jaas";

    @Override
    public void configure(Map<String, ?> configs) {}

    @Override
    public ConfigData get(String path) {
        return get(path, Set.of(JAAS));
    }

    @Override
    public ConfigData get(String path, Set<String> keys) {
        for (String key : keys) {
            if (!JAAS.equals(key)) {
                throw new ConfigException(
                        "${"
                                + KafkaSecurity.PROVIDER
                                + ":"
                                + path
                                + ":"
                                + key
                                + "}: the only key is "
                                + JAAS);
            }
        }
        return new ConfigData(keys.isEmpty() ? Map.of() : Map.of(JAAS, jaasQuoted(read(path))));
    }

    /** The file without its trailing line ending; never empty. Errors name the file only. */
    static String read(String path) {
        return read(path, System.getenv(CREDENTIALS_DIRECTORY));
    }

    /**
     * What systemd names the folder of a unit's credentials (LoadCredential=) in its environment.
     */
    static final String CREDENTIALS_DIRECTORY = "CREDENTIALS_DIRECTORY";

    /**
     * The file at path, or, for a bare name (no '/'), the unit's systemd credential of that name in
     * credentials (the JobManager's and the TaskManager's units each load it into their own folder,
     * so the one name in the job's arguments finds it on both).
     */
    static String read(String path, String credentials) {
        Path file;
        if (path.contains("/")) {
            file = Path.of(path);
        } else if (credentials == null || credentials.isEmpty()) {
            throw new ConfigException(
                    "kafka password file "
                            + path
                            + ": a credential's name, but $"
                            + CREDENTIALS_DIRECTORY
                            + " is not set here (the unit's LoadCredential="
                            + path
                            + ":FILE)");
        } else {
            file = Path.of(credentials, path);
        }
        String s;
        try {
            s = Files.readString(file, StandardCharsets.UTF_8);
        } catch (NoSuchFileException e) {
            throw new ConfigException(
                    "kafka password file " + file + ": no such file (on this host)");
        } catch (AccessDeniedException e) {
            throw new ConfigException("kafka password file " + file + ": permission denied");
        } catch (IOException e) {
            throw new ConfigException(
                    "kafka password file "
                            + file
                            + ": cannot be read ("
                            + e.getClass().getSimpleName()
                            + ")");
        }
        int end = s.length();
        while (end > 0 && (s.charAt(end - 1) == '\n' || s.charAt(end - 1) == '\r')) {
            end--;
        }
        if (end == 0) {
            throw new ConfigException("kafka password file " + file + " is empty");
        }
        return s.substring(0, end);
    }

    /**
     * s inside JAAS double quotes: Kafka parses sasl.jaas.config with a StreamTokenizer, which ends
     * a quoted value at '"' or a line end and reads backslash escapes.
     */
    static String jaasQuoted(String s) {
        StringBuilder b = new StringBuilder(s.length() + 8);
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            switch (c) {
                case '\\' -> b.append("\\\\");
                case '"' -> b.append("\\\"");
                case '\n' -> b.append("\\n");
                case '\r' -> b.append("\\r");
                default -> b.append(c);
            }
        }
        return b.toString();
    }

    @Override
    public void close() {}
}
