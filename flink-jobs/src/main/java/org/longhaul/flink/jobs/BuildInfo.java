package org.longhaul.flink.jobs;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.util.Properties;

/**
 * Which build this jar is: version, commit, build date and the JDK it was built with, from the
 * {@code longhaul/version.properties} Maven filled in (the same facts {@code longhaul --version}
 * prints of the Go binaries).
 */
public record BuildInfo(String version, String commit, String built, String java) {
    static final String RESOURCE = "/longhaul/version.properties";

    /** The jar's own build info. */
    public static BuildInfo current() {
        try (InputStream in = BuildInfo.class.getResourceAsStream(RESOURCE)) {
            if (in == null) {
                return new BuildInfo("dev", "unknown", "unknown", "unknown");
            }
            return of(in);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    static BuildInfo of(InputStream in) throws IOException {
        Properties p = new Properties();
        p.load(in);
        return new BuildInfo(
                p.getProperty("version", "dev"),
                p.getProperty("commit", "unknown"),
                p.getProperty("built", "unknown"),
                p.getProperty("java", "unknown"));
    }

    /** One line, as the Go binaries' --version. */
    public String line() {
        return "longhaul-flink "
                + version
                + " (commit "
                + commit
                + ", built "
                + built
                + ", Java "
                + java
                + ")";
    }
}
