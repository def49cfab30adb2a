package org.longhaul.flink.jobs;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayInputStream;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;

class BuildInfoTest {
    @Test
    void theJarKnowsWhichBuildItIs() {
        BuildInfo b = BuildInfo.current();
        // Maven filled the resource in: no placeholder is left, the JDK is the build's
        for (String v : new String[] {b.version(), b.commit(), b.built(), b.java()}) {
            assertFalse(v.contains("${"), b.toString());
        }
        assertEquals(System.getProperty("longhaul.expected.revision", "0.0.0-dev"), b.version());
        assertTrue(b.java().startsWith("17"), b.java());
        assertTrue(b.line().startsWith("longhaul-flink " + b.version() + " (commit "), b.line());
    }

    @Test
    void missingKeysReadAsUnknown() throws Exception {
        BuildInfo b =
                BuildInfo.of(
                        new ByteArrayInputStream(
                                "version=1.2.3\n".getBytes(StandardCharsets.UTF_8)));
        assertEquals(new BuildInfo("1.2.3", "unknown", "unknown", "unknown"), b);
    }
}
