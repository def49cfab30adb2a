package org.longhaul.flink.jobs;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.ObjectInputStream;
import java.io.ObjectOutputStream;
import java.time.Duration;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.List;
import java.util.Set;
import java.util.regex.Pattern;
import org.apache.flink.connector.kafka.source.enumerator.subscriber.KafkaSubscriber;
import org.apache.kafka.clients.admin.AdminClient;
import org.apache.kafka.common.TopicPartition;
import org.junit.jupiter.api.Test;

/** A failed listing of a source's topics keeps what was known, for a while (PatientSubscriber). */
class PatientSubscriberTest {
    private static final TopicPartition SHARED = new TopicPartition("longhaul.raw.path", 0);
    private static final TopicPartition S1 = new TopicPartition("longhaul.raw.path.agent-s1", 0);
    private static final TopicPartition S2 = new TopicPartition("longhaul.raw.path.agent-s2", 0);

    /** Answers each listing with the next of its answers: a set of partitions, or a failure. */
    private static final class Listings implements KafkaSubscriber {
        private static final long serialVersionUID = 1L;
        final transient Deque<Object> answers = new ArrayDeque<>();

        @Override
        public Set<TopicPartition> getSubscribedTopicPartitions(AdminClient admin) {
            Object next = answers.removeFirst();
            if (next instanceof RuntimeException e) {
                throw e;
            }
            @SuppressWarnings("unchecked")
            Set<TopicPartition> found = (Set<TopicPartition>) next;
            return found;
        }
    }

    private static RuntimeException hung() {
        return new RuntimeException(
                "Failed to get metadata for topics: Call(callName=listTopics) timed out");
    }

    private final long[] now = {0};
    private final Listings listings = new Listings();
    private final PatientSubscriber subscriber =
            new PatientSubscriber(listings, Duration.ofMinutes(5), () -> now[0]);

    @Test
    void aFailedListingKeepsThePartitionsKnownAndTheNextFindsTheNewOnes() {
        listings.answers.addAll(
                List.of(Set.of(SHARED, S1), hung(), hung(), Set.of(SHARED, S1, S2)));
        assertEquals(Set.of(SHARED, S1), subscriber.getSubscribedTopicPartitions(null));
        now[0] = 10_000;
        assertEquals(Set.of(SHARED, S1), subscriber.getSubscribedTopicPartitions(null));
        now[0] = 20_000;
        assertEquals(Set.of(SHARED, S1), subscriber.getSubscribedTopicPartitions(null));
        now[0] = 30_000;
        assertEquals(Set.of(SHARED, S1, S2), subscriber.getSubscribedTopicPartitions(null));
    }

    @Test
    void theFirstListingFailingFailsTheJobAsBefore() {
        RuntimeException first = hung();
        listings.answers.add(first);
        assertSame(
                first,
                assertThrows(
                        RuntimeException.class,
                        () -> subscriber.getSubscribedTopicPartitions(null)));
    }

    @Test
    void failingForLongerThanThePatienceFailsTheJobSayingHowLong() {
        listings.answers.add(Set.of(SHARED));
        subscriber.getSubscribedTopicPartitions(null);
        for (long t = 10_000; t <= 310_000; t += 10_000) {
            listings.answers.add(hung());
        }
        for (now[0] = 10_000; now[0] <= 300_000; now[0] += 10_000) {
            assertEquals(Set.of(SHARED), subscriber.getSubscribedTopicPartitions(null));
        }
        now[0] = 320_000;
        var e =
                assertThrows(
                        IllegalStateException.class,
                        () -> subscriber.getSubscribedTopicPartitions(null));
        assertEquals("the topics of the source could not be listed for 310 s", e.getMessage());
    }

    @Test
    void aSuccessBetweenFailuresStartsThePatienceAgain() {
        listings.answers.addAll(List.of(Set.of(SHARED), hung(), Set.of(SHARED), hung(), hung()));
        subscriber.getSubscribedTopicPartitions(null);
        now[0] = 10_000;
        subscriber.getSubscribedTopicPartitions(null); // failing since 10 s
        now[0] = 200_000;
        subscriber.getSubscribedTopicPartitions(null); // a success
        now[0] = 250_000;
        subscriber.getSubscribedTopicPartitions(null); // failing since 250 s
        now[0] = 500_000; // 250 s later: within the patience
        assertEquals(Set.of(SHARED), subscriber.getSubscribedTopicPartitions(null));
    }

    @Test
    void itIsSerialisedIntoTheJobGraphWithItsSource() throws Exception {
        PatientSubscriber real =
                PatientSubscriber.of(
                        Pattern.compile("longhaul\\.raw\\.path.*"), Duration.ofMinutes(5));
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        try (ObjectOutputStream out = new ObjectOutputStream(bytes)) {
            out.writeObject(real);
        }
        try (ObjectInputStream in =
                new ObjectInputStream(new ByteArrayInputStream(bytes.toByteArray()))) {
            assertEquals(PatientSubscriber.class, in.readObject().getClass());
        }
    }
}
