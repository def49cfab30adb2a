package org.longhaul.flink.replay;

import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import org.apache.flink.api.common.typeinfo.TypeInformation;
import org.apache.flink.api.connector.source.Source;
import org.apache.flink.api.connector.source.SplitEnumerator;
import org.apache.flink.api.connector.source.SplitEnumeratorContext;
import org.apache.flink.api.connector.source.lib.NumberSequenceSource.NumberSequenceSplit;
import org.apache.flink.api.connector.source.lib.util.IteratorSourceEnumerator;
import org.apache.flink.connector.datagen.source.DataGeneratorSource;
import org.apache.flink.connector.datagen.source.GeneratorFunction;
import org.longhaul.flink.records.RawMessage;

/**
 * A bounded source of raw messages held in memory, emitted in list order (at parallelism 1). An
 * empty list gives a source with no splits, which finishes at once.
 */
public final class ListSource extends DataGeneratorSource<RawMessage> {
    private static final long serialVersionUID = 1L;
    private final boolean empty;

    private ListSource(List<RawMessage> messages) {
        super(
                new Lookup(new ArrayList<>(messages)),
                Math.max(1, messages.size()),
                TypeInformation.of(RawMessage.class));
        this.empty = messages.isEmpty();
    }

    public static Source<RawMessage, ?, ?> of(List<RawMessage> messages) {
        return new ListSource(messages);
    }

    @Override
    public SplitEnumerator<NumberSequenceSplit, Collection<NumberSequenceSplit>> createEnumerator(
            SplitEnumeratorContext<NumberSequenceSplit> context) {
        return empty
                ? new IteratorSourceEnumerator<>(context, List.of())
                : super.createEnumerator(context);
    }

    private record Lookup(ArrayList<RawMessage> messages)
            implements GeneratorFunction<Long, RawMessage> {
        @Override
        public RawMessage map(Long index) {
            return messages.get(index.intValue());
        }
    }
}
