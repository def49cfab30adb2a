package org.longhaul.flink.functions;

import java.util.Set;
import java.util.function.Function;
import org.apache.flink.api.common.functions.OpenContext;
import org.apache.flink.api.common.typeinfo.TypeInformation;
import org.apache.flink.api.java.typeutils.ResultTypeQueryable;
import org.apache.flink.streaming.api.functions.ProcessFunction;
import org.apache.flink.util.Collector;
import org.apache.flink.util.OutputTag;
import org.longhaul.flink.functions.stats.Observation;
import org.longhaul.flink.functions.stats.ObservationType;
import org.longhaul.flink.functions.stats.Observer;
import org.longhaul.flink.records.DeadLetter;
import org.longhaul.flink.records.HasSrc;
import org.longhaul.flink.records.Links;
import org.longhaul.flink.records.RawMessage;
import org.longhaul.flink.records.SelfConsistent;
import org.longhaul.flink.records.Validated;
import org.longhaul.flink.records.Writers;
import org.longhaul.flink.validate.MessageValidator;
import org.longhaul.flink.validate.SchemaRegistry;

/**
 * Parses and validates each raw message of one stream against its schema: valid ones go on as
 * records, the rest to the {@link #DEAD_LETTERS} side output, and so do valid ones whose clock
 * {@link ClockSkew} judges too far from the broker's (reason "clock_skew: ...") and those an agent
 * wrote for another site's src on its own topic, or a bridge for a src outside its central host
 * list ({@link Writers}, {@link BridgeLists}, reason "foreign_src: ...") or that contradict
 * themselves ({@link SelfConsistent}, reason "inconsistent: ...") or that open more links for their
 * src than {@link LinkCap} allows (reason "too_many_links: ..."). Valid backfilled samples ({@link
 * History}) go on too, in order with the live ones, without a timestamp; {@link LiveOnly} keeps
 * them from whatever must not see them. With an {@link Observer}, each valid live sample's
 * contribution to the link statistics goes to {@link #OBSERVATIONS}, naming the raw topic it came
 * from. Never fails on bad input.
 */
public final class ValidateFunction<T> extends ProcessFunction<RawMessage, T>
        implements ResultTypeQueryable<T> {
    private static final long serialVersionUID = 1L;
    public static final String REJECTED_BY = "flink:validate";
    public static final OutputTag<DeadLetter> DEAD_LETTERS =
            new OutputTag<>("dead-letters", TypeInformation.of(DeadLetter.class));

    /**
     * What each valid live sample gives the link statistics (with an {@link Observer}), naming its
     * raw topic: where its dead letter goes should it come too late for its minute.
     */
    public static final OutputTag<Observation> OBSERVATIONS =
            new OutputTag<>("observations", ObservationType.INSTANCE);

    /** Valid messages as they came (with {@code forward}): what the job passes on unchanged. */
    public static final OutputTag<Validated> VALID =
            new OutputTag<>("valid", TypeInformation.of(Validated.class));

    private final String schemaName;
    private final Class<T> type;
    private final String schemasDir;
    private final ClockSkew clock;
    private final LinkCap linkCap;
    private final boolean forward;
    private final BridgeLists bridges;
    private final Observer<T> observer;
    private transient MessageValidator validator;
    private transient LinkCap.Budget links;
    private transient BridgeLists.Table bridgeHosts;
    private transient Function<String, Set<String>> hostsOf;

    /**
     * @param schemasDir a directory of *.schema.json, or null for the copy bundled in the jar
     * @param clock the rule judging each message's clock against the broker's
     */
    public ValidateFunction(String schemaName, Class<T> type, String schemasDir, ClockSkew clock) {
        this(
                schemaName,
                type,
                schemasDir,
                clock,
                LinkCap.defaults(),
                false,
                BridgeLists.none(),
                null);
    }

    /**
     * @param linkCap how many links one src may report on
     * @param forward also emit each valid message's bytes to {@link #VALID}
     * @param bridges the srcs each bridge of its own may report for
     * @param observer what a valid live sample gives the statistics ({@link #OBSERVATIONS}), or
     *     null for a kind they do not count
     */
    public ValidateFunction(
            String schemaName,
            Class<T> type,
            String schemasDir,
            ClockSkew clock,
            LinkCap linkCap,
            boolean forward,
            BridgeLists bridges,
            Observer<T> observer) {
        this.schemaName = schemaName;
        this.type = type;
        this.schemasDir = schemasDir;
        this.clock = clock;
        this.linkCap = linkCap;
        this.forward = forward;
        this.bridges = bridges;
        this.observer = observer;
    }

    @Override
    public void open(OpenContext context) {
        validator = new MessageValidator(SchemaRegistry.load(schemasDir), REJECTED_BY);
        links = linkCap.budget();
        bridgeHosts = bridges.open();
        hostsOf = bridgeHosts::hostsOf;
    }

    @Override
    public void close() {
        if (bridgeHosts != null) {
            bridgeHosts.close();
            bridgeHosts = null;
        }
    }

    @Override
    public void processElement(RawMessage raw, Context ctx, Collector<T> out) {
        long now = System.currentTimeMillis();
        var checked = validator.check(raw, schemaName, type, now);
        if (!checked.valid()) {
            ctx.output(DEAD_LETTERS, checked.deadLetter());
            return;
        }
        String foreign =
                checked.value() instanceof HasSrc s
                        ? Writers.foreignSrc(
                                raw.sourceTopic(), s.src(), s.dst(), s.probeId(), hostsOf)
                        : null;
        if (foreign != null) {
            ctx.output(DEAD_LETTERS, validator.reject(raw, foreign, now));
            return;
        }
        String inconsistent =
                checked.value() instanceof SelfConsistent c ? c.inconsistency() : null;
        if (inconsistent != null) {
            ctx.output(DEAD_LETTERS, validator.reject(raw, inconsistent, now));
            return;
        }
        ClockSkew.Skew skew = clock.judge(raw);
        if (skew != null) {
            ctx.output(DEAD_LETTERS, validator.reject(raw, skew.reason(), now));
            return;
        }
        String over =
                checked.value() instanceof HasSrc s ? links.admit(s.src(), s.dst(), now) : null;
        if (over != null) {
            ctx.output(DEAD_LETTERS, validator.reject(raw, over, now));
            return;
        }
        out.collect(checked.value());
        if (observer != null && !History.is(ctx.timestamp())) {
            Observation o = observer.of(checked.value(), raw.sourceTopic());
            if (o != null) {
                ctx.output(OBSERVATIONS, o);
            }
        }
        if (forward && !raw.history() && checked.value() instanceof HasSrc s) {
            ctx.output(VALID, new Validated(Links.key(s.src(), s.dst()), raw.payload()));
        }
    }

    @Override
    public TypeInformation<T> getProducedType() {
        return TypeInformation.of(type);
    }
}
