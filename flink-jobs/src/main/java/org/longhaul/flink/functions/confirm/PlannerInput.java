package org.longhaul.flink.functions.confirm;

/** One input of {@link ConfirmationPlanner}: a suspicion, or a run of the link (exactly one is set). */
public record PlannerInput(Suspicion suspicion, RunSeen run) {

    public static PlannerInput of(Suspicion s) {
        return new PlannerInput(s, null);
    }

    public static PlannerInput of(RunSeen r) {
        return new PlannerInput(null, r);
    }

    public String link() {
        return suspicion != null ? suspicion.link() : run.link();
    }

    public long ts() {
        return suspicion != null ? suspicion.ts() : run.ts();
    }
}
