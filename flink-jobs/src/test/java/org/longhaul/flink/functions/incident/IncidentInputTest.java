package org.longhaul.flink.functions.incident;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.longhaul.flink.testing.Samples.DST;
import static org.longhaul.flink.testing.Samples.SRC;
import static org.longhaul.flink.testing.Samples.T0;

import org.junit.jupiter.api.Test;
import org.longhaul.flink.testing.Samples;

class IncidentInputTest {
    private static IncidentInput run(String errorClass) {
        return IncidentInput.of(
                Samples.throughput(
                        errorClass == null
                                ? Samples.summary(SRC, DST, "r1", T0, 9e8)
                                : Samples.failed(SRC, DST, "r1", T0, errorClass)));
    }

    @Test
    void aMeasuredRunIsGoodAndAFailedOneLow() {
        assertEquals(IncidentInput.Type.GOOD_RUN, run(null).type());
        for (String failed : new String[] {"timeout", "connection_refused", "server_busy"}) {
            assertEquals(IncidentInput.Type.LOW_RUN, run(failed).type(), failed);
        }
    }

    @Test
    void aRunItsAgentCouldNotStartSaysNothingOfTheLink() {
        assertNull(run("not_started"), "neither good nor low: the link keeps what it had");
    }
}
