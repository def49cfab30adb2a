package org.longhaul.flink.functions.stats;

/**
 * The running statistics of one link and protocol in one window: counts, sums, extremes and a
 * {@link QuantileSketch} of throughput. Mergeable, so 1h and 1d windows fold the 1m results. Fixed
 * part: 22 numbers (≈ 180 bytes serialized) plus the sketch. A Flink POJO.
 */
public final class LinkAccumulator {
    public long samples;
    public long runs;
    public long errors;

    public long throughputCount;
    public double throughputSum;
    public double throughputMax;
    public QuantileSketch throughput = new QuantileSketch();

    public long retransmits;
    public long retransmitBytes;
    public long retransmitSamples;

    public long lostPackets;
    public long sentPackets;
    public double lossPercentSum;
    public long lossPercentCount;
    public double lossPercentMax = -1;

    public double jitterSum;
    public long jitterCount;
    public double jitterMax = -1;

    public double rttMin = Double.POSITIVE_INFINITY;
    public double rttMax = Double.NEGATIVE_INFINITY;
    public double rttSum;
    public long rttCount;

    public double hopSum;
    public long hopCount;

    public void add(Observation o) {
        samples += o.samples();
        runs += o.runs();
        errors += o.errors();
        if (o.throughputBps() != null) {
            throughputCount++;
            throughputSum += o.throughputBps();
            throughputMax = Math.max(throughputMax, o.throughputBps());
            throughput.add(o.throughputBps());
        }
        if (o.retransmits() != null && o.bytes() != null) {
            retransmits += o.retransmits();
            retransmitBytes += o.bytes();
            retransmitSamples++;
        }
        if (o.lostPackets() != null && o.sentPackets() != null) {
            lostPackets += o.lostPackets();
            sentPackets += o.sentPackets();
        }
        if (o.lossPercent() != null) {
            lossPercentSum += o.lossPercent();
            lossPercentCount++;
            lossPercentMax = Math.max(lossPercentMax, o.lossPercent());
        }
        if (o.jitterMs() != null) {
            jitterSum += o.jitterMs();
            jitterCount++;
            jitterMax = Math.max(jitterMax, o.jitterMs());
        }
        addRtt(o.rttMinMs(), o.rttMeanMs(), o.rttMaxMs());
        if (o.hopCount() != null) {
            hopSum += o.hopCount();
            hopCount++;
        }
    }

    private void addRtt(Double min, Double mean, Double max) {
        if (min != null) {
            rttMin = Math.min(rttMin, min);
        }
        if (max != null) {
            rttMax = Math.max(rttMax, max);
        }
        if (mean != null) {
            rttSum += mean;
            rttCount++;
        }
    }

    public LinkAccumulator merge(LinkAccumulator o) {
        samples += o.samples;
        runs += o.runs;
        errors += o.errors;
        throughputCount += o.throughputCount;
        throughputSum += o.throughputSum;
        throughputMax = Math.max(throughputMax, o.throughputMax);
        throughput.merge(o.throughput);
        retransmits += o.retransmits;
        retransmitBytes += o.retransmitBytes;
        retransmitSamples += o.retransmitSamples;
        lostPackets += o.lostPackets;
        sentPackets += o.sentPackets;
        lossPercentSum += o.lossPercentSum;
        lossPercentCount += o.lossPercentCount;
        lossPercentMax = Math.max(lossPercentMax, o.lossPercentMax);
        jitterSum += o.jitterSum;
        jitterCount += o.jitterCount;
        jitterMax = Math.max(jitterMax, o.jitterMax);
        rttMin = Math.min(rttMin, o.rttMin);
        rttMax = Math.max(rttMax, o.rttMax);
        rttSum += o.rttSum;
        rttCount += o.rttCount;
        hopSum += o.hopSum;
        hopCount += o.hopCount;
        return this;
    }
}
