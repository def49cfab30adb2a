package org.longhaul.flink.functions;

import java.io.Serializable;
import java.util.HashMap;
import java.util.Map;
import java.util.Set;

/**
 * Which srcs each pScheduler bridge of its own ({@code psbridge-NAME}) may report for: its central
 * host list, set by the admin ({@code longhaul admin add-bridge NAME --hosts ...}) on the
 * bridge.hosts topic. The job dead-letters a sample on a bridge's own raw topics whose src is not
 * in its list ({@link org.longhaul.flink.records.Writers#foreignSrc}). Serializable: it travels
 * with the job graph, and each function opens its {@link Table} where it runs.
 */
public interface BridgeLists extends Serializable {

    /** The lists as they are now and as they change, for one function instance's lifetime. */
    Table open();

    /** The live lists. */
    interface Table extends AutoCloseable {
        /** The hosts bridge {@code principal} may report for; null when it has no list. */
        Set<String> hostsOf(String principal);

        @Override
        void close();
    }

    /** No bridge has a list: every sample on a bridge's own topics is dead-lettered. */
    static BridgeLists none() {
        return fixed(Map.of());
    }

    /** Lists that never change (tests, replays). */
    static BridgeLists fixed(Map<String, Set<String>> lists) {
        HashMap<String, Set<String>> copy = new HashMap<>();
        lists.forEach((k, v) -> copy.put(k, Set.copyOf(v)));
        return new Fixed(copy);
    }

    /** {@link #fixed}'s lists, their own table: nothing to open or close. */
    record Fixed(HashMap<String, Set<String>> lists) implements BridgeLists, Table {
        @Override
        public Table open() {
            return this;
        }

        @Override
        public Set<String> hostsOf(String principal) {
            return lists.get(principal);
        }

        @Override
        public void close() {}
    }
}
