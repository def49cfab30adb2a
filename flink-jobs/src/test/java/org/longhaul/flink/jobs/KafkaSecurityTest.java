package org.longhaul.flink.jobs;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import javax.security.auth.login.AppConfigurationEntry;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.consumer.CloseOptions;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.common.config.ConfigException;
import org.apache.kafka.common.config.SaslConfigs;
import org.apache.kafka.common.config.types.Password;
import org.apache.kafka.common.security.JaasContext;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.apache.logging.log4j.Level;
import org.apache.logging.log4j.LogManager;
import org.apache.logging.log4j.core.LoggerContext;
import org.apache.logging.log4j.core.appender.WriterAppender;
import org.apache.logging.log4j.core.config.Configuration;
import org.apache.logging.log4j.core.config.LoggerConfig;
import org.apache.logging.log4j.core.layout.PatternLayout;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The job's Kafka security arguments: the client properties they give, and that the password stays
 * in its file.
 */
class KafkaSecurityTest {
    /** Quotes and a backslash, which a JAAS value must escape, and the newline `echo` adds. */
    private static final String SECRET = "s3cr3t-\"quoted\"-back\\slash-Longhaul";

    @TempDir Path dir;

    private Path passwordFile(String content) throws Exception {
        Path f = dir.resolve("kafka-flink.password");
        Files.writeString(f, content);
        return f;
    }

    private static JobArgs parse(String... argv) {
        return JobArgs.parse(argv);
    }

    private JobArgs secured(Path pw) {
        return parse(
                "--kafka",
                "127.0.0.1:1",
                "--kafka-ca",
                dir.resolve("ca.crt").toString(),
                "--kafka-user",
                "flink",
                "--kafka-password-file",
                pw.toString());
    }

    @Test
    void saslSslArgumentsGiveTlsScramAndAPasswordVariableNotThePassword() throws Exception {
        Path pw = passwordFile(SECRET + "\n");
        JobArgs args = secured(pw);
        Properties p = args.kafka().security().clientProperties();
        assertEquals("SASL_SSL", p.getProperty("security.protocol"));
        assertEquals("SCRAM-SHA-512", p.getProperty("sasl.mechanism"));
        assertEquals("PEM", p.getProperty("ssl.truststore.type"));
        assertEquals(dir.resolve("ca.crt").toString(), p.getProperty("ssl.truststore.location"));
        assertEquals("secretfile", p.getProperty("config.providers"));
        assertEquals(
                SecretFileConfigProvider.class.getName(),
                p.getProperty("config.providers.secretfile.class"));
        assertEquals(
                "org.apache.kafka.common.security.scram.ScramLoginModule required username=\"flink\" password=\"${secretfile:"
                        + pw
                        + ":jaas}\";",
                p.getProperty("sasl.jaas.config"));
        for (String v : p.stringPropertyNames().stream().map(p::getProperty).toList()) {
            assertFalse(v.contains("s3cr3t"), v);
        }
        assertFalse(args.toString().contains("s3cr3t"), args.toString());
        assertTrue(args.kafka().security().toString().contains(pw.toString()));
    }

    @Test
    void theKafkaClientResolvesThePasswordFromTheFileWithoutItsNewline() throws Exception {
        Properties p = secured(passwordFile(SECRET + "\r\n")).kafka().security().clientProperties();
        assertEquals(SECRET, resolvedPassword(p));
        p = secured(passwordFile(SECRET)).kafka().security().clientProperties();
        assertEquals(
                SECRET, resolvedPassword(p), "a file without a newline, as the stack writes it");
    }

    /**
     * What ScramLoginModule will be given: Kafka resolves the variable, then parses the JAAS line.
     */
    private static String resolvedPassword(Properties security) {
        Map<String, Object> m = new java.util.HashMap<>();
        security.forEach((k, v) -> m.put((String) k, v));
        m.put(ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, "127.0.0.1:1");
        m.put(ConsumerConfig.KEY_DESERIALIZER_CLASS_CONFIG, ByteArrayDeserializer.class.getName());
        m.put(
                ConsumerConfig.VALUE_DESERIALIZER_CLASS_CONFIG,
                ByteArrayDeserializer.class.getName());
        Password jaas = new ConsumerConfig(m).getPassword(SaslConfigs.SASL_JAAS_CONFIG);
        List<AppConfigurationEntry> entries =
                JaasContext.loadClientContext(Map.of(SaslConfigs.SASL_JAAS_CONFIG, jaas))
                        .configurationEntries();
        assertEquals("flink", entries.get(0).getOptions().get("username"));
        return (String) entries.get(0).getOptions().get("password");
    }

    @Test
    void anAbsentOrEmptyPasswordFileStopsTheClientNamingTheFileOnly() throws Exception {
        Path absent = dir.resolve("absent.password");
        var e =
                assertThrows(
                        ConfigException.class,
                        () ->
                                resolvedPassword(
                                        secured(absent).kafka().security().clientProperties()));
        assertEquals(
                "kafka password file " + absent + ": no such file (on this host)", e.getMessage());
        Path empty = passwordFile("\n");
        e =
                assertThrows(
                        ConfigException.class,
                        () ->
                                resolvedPassword(
                                        secured(empty).kafka().security().clientProperties()));
        assertEquals("kafka password file " + empty + " is empty", e.getMessage());
    }

    @Test
    void noLogLineOfTheJobsKafkaClientsCarriesThePassword() throws Exception {
        Properties p =
                parse(
                                "--kafka-user",
                                "flink",
                                "--kafka-password-file",
                                passwordFile(SECRET + "\n").toString())
                        .kafka()
                        .security()
                        .clientProperties();
        p.put("bootstrap.servers", "127.0.0.1:1");
        String log =
                captureLogs(
                        () -> {
                            Properties c = copy(p);
                            c.put("group.id", "g");
                            new KafkaConsumer<>(
                                            c,
                                            new ByteArrayDeserializer(),
                                            new ByteArrayDeserializer())
                                    .close(CloseOptions.timeout(Duration.ZERO));
                            Properties t = copy(p);
                            t.put("transactional.id", "longhaul-link-monitor-events-0");
                            new KafkaProducer<>(
                                            t, new ByteArraySerializer(), new ByteArraySerializer())
                                    .close(Duration.ZERO);
                            Admin.create(copy(p)).close(Duration.ZERO);
                        });
        assertTrue(
                log.contains("sasl.jaas.config = [hidden]"),
                "the clients did log their config: " + log.length() + " chars");
        assertFalse(log.contains("s3cr3t"), "the password is in a log line");
    }

    private static Properties copy(Properties p) {
        Properties c = new Properties();
        c.putAll(p);
        return c;
    }

    /**
     * Everything Kafka's clients log at DEBUG and above while r runs (and nothing of it on the
     * console).
     */
    private static String captureLogs(Runnable r) {
        LoggerContext ctx = (LoggerContext) LogManager.getContext(false);
        Configuration config = ctx.getConfiguration();
        StringWriter out = new StringWriter();
        WriterAppender appender =
                WriterAppender.createAppender(
                        PatternLayout.newBuilder().withPattern("%p %c - %m%n").build(),
                        null,
                        out,
                        "capture",
                        false,
                        true);
        appender.start();
        LoggerConfig kafka = new LoggerConfig("org.apache.kafka", Level.DEBUG, false);
        kafka.addAppender(appender, Level.DEBUG, null);
        config.addLogger("org.apache.kafka", kafka);
        ctx.updateLoggers();
        try {
            r.run();
        } finally {
            config.removeLogger("org.apache.kafka");
            ctx.updateLoggers();
            appender.stop();
        }
        return out.toString();
    }

    @Test
    void sslAndPlaintextTakeOnlyWhatTheyUse() {
        Properties ssl =
                parse("--kafka-security", "ssl", "--kafka-ca", "/etc/longhaul/ca.crt")
                        .kafka()
                        .security()
                        .clientProperties();
        assertEquals(
                Map.of(
                        "security.protocol",
                        "SSL",
                        "ssl.truststore.type",
                        "PEM",
                        "ssl.truststore.location",
                        "/etc/longhaul/ca.crt"),
                Map.copyOf(ssl));
        Properties plain =
                parse("--kafka-security", "plaintext").kafka().security().clientProperties();
        assertEquals(Map.of("security.protocol", "PLAINTEXT"), Map.copyOf(plain));
        Properties noCa = parse("--kafka-security", "ssl").kafka().security().clientProperties();
        assertEquals(
                Map.of("security.protocol", "SSL"),
                Map.copyOf(noCa),
                "no --kafka-ca: the JVM's trust store");
    }

    @Test
    void contradictoryOrMissingArgumentsStopTheJobAtStartSayingWhich() {
        List<String[]> bad = new ArrayList<>();
        List<String> said = new ArrayList<>();
        bad.add(new String[0]);
        said.add(
                "--kafka-security sasl_ssl (the default) needs --kafka-user and --kafka-password-file");
        bad.add(new String[] {"--kafka-user", "flink"});
        said.add("needs --kafka-user and --kafka-password-file");
        bad.add(new String[] {"--kafka-security", "tls"});
        said.add("--kafka-security: sasl_ssl, ssl or plaintext, not tls");
        bad.add(new String[] {"--kafka-security", "plaintext", "--kafka-ca", "/ca.crt"});
        said.add("--kafka-security plaintext takes no --kafka-ca");
        bad.add(
                new String[] {
                    "--kafka-security",
                    "ssl",
                    "--kafka-user",
                    "flink",
                    "--kafka-password-file",
                    "/pw"
                });
        said.add("--kafka-user and --kafka-password-file need --kafka-security sasl_ssl, not ssl");
        bad.add(new String[] {"--kafka-user", "flink", "--kafka-password-file", "secrets/pw"});
        said.add("--kafka-password-file: an absolute path");
        bad.add(new String[] {"--kafka-security", "ssl", "--kafka-ca", "ca.crt"});
        said.add("--kafka-ca: an absolute path");
        bad.add(new String[] {"--kafka-user", "flink", "--kafka-password-file", "/run/a:b"});
        said.add("--kafka-password-file: a path without ':' or '}'");
        for (int i = 0; i < bad.size(); i++) {
            String[] argv = bad.get(i);
            var e =
                    assertThrows(
                            IllegalArgumentException.class,
                            () -> parse(argv),
                            String.join(" ", argv));
            assertTrue(e.getMessage().contains(said.get(i)), e.getMessage());
        }
    }

    @Test
    void aPasswordOnTheCommandLineIsRefusedWithoutRepeatingIt() {
        var e =
                assertThrows(
                        IllegalArgumentException.class,
                        () -> parse("--kafka-user", "flink", "--kafka-password", "s3cr3t"));
        assertTrue(e.getMessage().startsWith("--kafka-password is not taken"), e.getMessage());
        assertFalse(e.getMessage().contains("s3cr3t"), e.getMessage());
    }
}
