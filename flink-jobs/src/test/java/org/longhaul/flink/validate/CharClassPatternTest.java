package org.longhaul.flink.validate;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Random;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.longhaul.flink.testing.ContractFiles;

/**
 * The two tables against the JDK's regex, the judge, on the contract's patterns and a few more of
 * the shape.
 */
class CharClassPatternTest {
    private static final String ALPHABET =
            "aAzZ09_.:/-!<>@ \t\n\r\u0085\u2028é\u00ff\uD83D\uDE80[]^$";

    /** Every pattern of the contract's schemas. */
    private static List<String> contractPatterns() throws IOException {
        TreeSet<String> out = new TreeSet<>();
        Matcher m = Pattern.compile("\"pattern\"\\s*:\\s*\"((?:[^\"\\\\]|\\\\.)*)\"").matcher("");
        try (Stream<Path> files = Files.list(ContractFiles.schemasDir())) {
            for (Path f : files.filter(p -> p.toString().endsWith(".schema.json")).toList()) {
                m.reset(Files.readString(f));
                while (m.find()) {
                    out.add(m.group(1).replace("\\\\", "\\"));
                }
            }
        }
        return List.copyOf(out);
    }

    private static String randomString(Random r) {
        StringBuilder s = new StringBuilder();
        for (int n = r.nextInt(r.nextInt(10) == 0 ? 80 : 12); n > 0; n--) {
            s.append(
                    r.nextInt(3) == 0
                            ? (char) ('a' + r.nextInt(26))
                            : ALPHABET.charAt(r.nextInt(ALPHABET.length())));
        }
        return s.toString();
    }

    @Test
    void acceptsOnlyWhatTheRegexFindsAndAllOfItButLineBreaks() throws IOException {
        List<String> patterns = new java.util.ArrayList<>(contractPatterns());
        patterns.addAll(List.of("^[a-c][x-z0-2]{2,5}$", "^[-a][b-]{3,}$", "^[A-Z][a-z]{0,0}$"));
        Random random = new Random(20261126);
        int accepted = 0;
        for (String p : patterns) {
            CharClassPattern fast = CharClassPattern.of(p);
            if (fast == null) {
                continue;
            }
            Pattern regex = Pattern.compile(p);
            for (int i = 0; i < 50_000; i++) {
                String s = randomString(random);
                boolean found = regex.matcher(s).find();
                if (fast.accepts(s)) {
                    accepted++;
                    assertTrue(found, () -> p + " on " + s);
                } else if (found) {
                    // what the tables leave: a line break $ lets through, or text beyond the count
                    assertTrue(
                            s.chars().anyMatch(c -> "\n\r\u0085\u2028\u2029".indexOf(c) >= 0),
                            () -> p + " left " + s);
                }
            }
        }
        assertTrue(accepted > 10_000, accepted + " accepted");
    }

    @Test
    void readsTheContractsClassPatternsAndLeavesTheRest() throws IOException {
        int read = 0;
        for (String p : contractPatterns()) {
            if (CharClassPattern.of(p) != null) {
                read++;
            }
        }
        assertEquals(3, read, contractPatterns().toString());
        assertNotNull(CharClassPattern.of("^[A-Za-z0-9][A-Za-z0-9._:-]*$"));
        for (String other :
                List.of(
                        "^!([A-Za-z]|[0-9]+|<[0-9]+>)?$",
                        "^[a-z]+$",
                        "[a-z][a-z]*",
                        "^[\\w][a-z]*$",
                        "^[^a][a]*$",
                        "^[a-z][a-z]{3,2}$",
                        "^[z-a][a]*$",
                        "^[é][a]*$")) {
            assertNull(CharClassPattern.of(other), other);
        }
        CharClassPattern host = CharClassPattern.of("^[A-Za-z0-9][A-Za-z0-9._:-]*$");
        assertTrue(host.accepts("perfsonar.ihep.ac.cn"));
        assertTrue(host.accepts("2001:db8::1"));
        assertFalse(host.accepts("-c;rm"));
        assertFalse(host.accepts(""));
        assertFalse(
                host.accepts(
                        "host\n")); // the regex's to judge: $ matches before a final line break
    }
}
