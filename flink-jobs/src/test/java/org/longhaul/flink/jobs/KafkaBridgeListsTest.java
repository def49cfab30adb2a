package org.longhaul.flink.jobs;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import java.nio.charset.StandardCharsets;
import java.util.HashMap;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;

/**
 * The bridges' lists as the admin writes them: the last list of a bridge holds, a tombstone ends
 * it.
 */
class KafkaBridgeListsTest {
    private static byte[] b(String s) {
        return s == null ? null : s.getBytes(StandardCharsets.UTF_8);
    }

    private static String list(String bridge, String hosts) {
        return "{\"schema\":\"bridge_hosts\",\"version\":1,\"bridge\":\""
                + bridge
                + "\",\"hosts\":["
                + hosts
                + "],\"ts\":1764835200000}";
    }

    @Test
    void theLastListOfABridgeHoldsAndItsTombstoneEndsIt() {
        Map<String, Set<String>> lists = new HashMap<>();
        KafkaBridgeLists.Follower.apply(lists, b("psbridge-a"), b(list("psbridge-a", "\"h1\"")));
        KafkaBridgeLists.Follower.apply(
                lists, b("psbridge-a"), b(list("psbridge-a", "\"h1\",\"h2\"")));
        KafkaBridgeLists.Follower.apply(lists, b("psbridge-b"), b(list("psbridge-b", "\"h3\"")));
        assertEquals(Map.of("psbridge-a", Set.of("h1", "h2"), "psbridge-b", Set.of("h3")), lists);
        KafkaBridgeLists.Follower.apply(lists, b("psbridge-a"), null);
        assertNull(lists.get("psbridge-a"));
        assertEquals(Set.of("h3"), lists.get("psbridge-b"));
    }

    @Test
    void aRecordThatIsNotItsKeysListChangesNothing() {
        Map<String, Set<String>> lists = new HashMap<>();
        KafkaBridgeLists.Follower.apply(lists, b("psbridge-a"), b(list("psbridge-a", "\"h1\"")));
        for (String bad :
                new String[] {
                    list("psbridge-b", "\"h9\""), // another bridge's under a's key
                    "{\"schema\":\"link_stats\",\"version\":1}",
                    list("psbridge-a", "1"),
                    "not json"
                }) {
            KafkaBridgeLists.Follower.apply(lists, b("psbridge-a"), b(bad));
        }
        assertEquals(Map.of("psbridge-a", Set.of("h1")), lists);
    }
}
