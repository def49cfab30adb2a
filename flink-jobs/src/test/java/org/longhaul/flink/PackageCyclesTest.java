package org.longhaul.flink;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * The job's packages import one another one way: no package reaches itself again through its
 * imports (detect and confirm did, through the suspicions and the keyed-state helpers).
 */
class PackageCyclesTest {
    private static final Pattern PACKAGE = Pattern.compile("(?m)^package ([\\w.]+);");
    private static final Pattern IMPORT =
            Pattern.compile("(?m)^import (?:static )?((?:[a-z]\\w*\\.)*[a-z]\\w*)\\.[A-Z]");

    @Test
    void noPackageOfTheJobImportsItselfThroughOthers() throws IOException {
        Map<String, Set<String>> imports = imports(Path.of("src/main/java"));
        assertTrue(imports.size() > 5, "packages read: " + imports.keySet());
        List<String> cycles = new ArrayList<>();
        for (String p : new TreeSet<>(imports.keySet())) {
            List<String> path = pathBack(p, imports);
            if (path != null) {
                cycles.add(String.join(" → ", path));
            }
        }
        assertEquals(List.of(), cycles);
    }

    /** The packages src/main/java declares, each with the job's packages it imports. */
    private static Map<String, Set<String>> imports(Path root) throws IOException {
        Map<String, Set<String>> out = new HashMap<>();
        try (Stream<Path> files = Files.walk(root)) {
            for (Path f : files.filter(x -> x.toString().endsWith(".java")).toList()) {
                String s = Files.readString(f);
                Matcher pm = PACKAGE.matcher(s);
                if (!pm.find()) {
                    continue;
                }
                Set<String> to = out.computeIfAbsent(pm.group(1), k -> new TreeSet<>());
                Matcher im = IMPORT.matcher(s);
                while (im.find()) {
                    if (im.group(1).startsWith("org.longhaul.")
                            && !im.group(1).equals(pm.group(1))) {
                        to.add(im.group(1));
                    }
                }
            }
        }
        return out;
    }

    /** A path of imports from p back to p, or null. */
    private static List<String> pathBack(String p, Map<String, Set<String>> imports) {
        Map<String, String> from = new HashMap<>();
        List<String> todo = new ArrayList<>(imports.getOrDefault(p, Set.of()));
        todo.forEach(q -> from.put(q, p));
        Set<String> seen = new HashSet<>(todo);
        while (!todo.isEmpty()) {
            String q = todo.remove(0);
            if (q.equals(p)) {
                List<String> path = new ArrayList<>(List.of(p));
                for (String r = from.get(p); !r.equals(p); r = from.get(r)) {
                    path.add(0, r);
                }
                path.add(0, p);
                return path;
            }
            for (String r : imports.getOrDefault(q, Set.of())) {
                if (seen.add(r)) {
                    from.put(r, q);
                    todo.add(r);
                }
            }
        }
        return null;
    }
}
