# The production Flink job, kept running by `longhaul job keep` (operator/flink/keeper.go) under
# supervisord: `make up` leaves it running, restored from its newest savepoint or retained
# checkpoint (under LONGHAUL_FLINK_STATE_DIR, per job name); `make down` stops it with a savepoint
# before the services. LONGHAUL_JOB_KEEP=0 leaves the cluster without it (the tests run their own).
# shellcheck shell=bash

: "${LONGHAUL_JOB_KEEP:=1}"
job_run()   { echo "${RUN_ROOT}/job"; }
job_log()   { echo "$(job_run)/keeper.log"; }
procs_job() { [ "${LONGHAUL_JOB_KEEP}" = 1 ] && echo job/keeper; }
ports_job() { echo -; }
logs_job()  { job_log; }
install_job() {
  [ "${LONGHAUL_JOB_KEEP}" != 1 ] || [ -s "${LONGHAUL_ROOT}/bin/longhaul-flink.jar" ] || die "no bin/longhaul-flink.jar (make build-flink)"
}
configure_job() { mkdir -p "$(job_run)"; }

start_job() {
  [ "${LONGHAUL_JOB_KEEP}" = 1 ] || return 0
  local args=()
  [ -z "${LONGHAUL_JOB_ARGS_FILE}" ] || args=(--args-file "$(realpath "${LONGHAUL_JOB_ARGS_FILE}")")
  SUP_PRIORITY=40 start_daemon job/keeper "$(job_log)" "${LONGHAUL_CLI}" job keep --name "${LONGHAUL_JOB_NAME}" \
    --state-dir "${LONGHAUL_FLINK_STATE_DIR}" --interval 5s --wait 3m "${args[@]}"
}

# job_overview_line: the job's line of /jobs/overview as "STATE RUNNING_TASKS TOTAL_TASKS ID".
job_overview_line() {
  flink_get /jobs/overview | jq -r --arg n "${LONGHAUL_JOB_NAME}" \
    '[.jobs[] | select(.name == $n and (.state | IN("FINISHED","CANCELED","FAILED","SUSPENDED") | not))][0]
     | select(. != null) | "\(.state) \(.tasks.running) \(.tasks.total) \(.jid)"'
}

# Healthy = the keeper runs and the job is RUNNING with every task running (a job RUNNING with
# 0/18 tasks is what a lost TaskManager leaves).
health_job() {
  [ "${LONGHAUL_JOB_KEEP}" = 1 ] || return 0
  svc_pid job/keeper >/dev/null || return 1
  local state running total
  read -r state running total _ <<<"$(job_overview_line)"
  [ "$state" = RUNNING ] && [ -n "$running" ] && [ "$running" = "$total" ]
}

# Stop the keeper first (it would resubmit), then the job after a savepoint into
# savepoints/<name>; a job that cannot save is canceled, and its checkpoints stay (retained).
stop_job() {
  stop_daemon job/keeper
  local line
  line="$(job_overview_line 2>/dev/null)" || return 0
  [ -n "$line" ] || return 0
  log "stopping job ${LONGHAUL_JOB_NAME} with a savepoint"
  if ! "${LONGHAUL_CLI}" job stop --name "${LONGHAUL_JOB_NAME}" --state-dir "${LONGHAUL_FLINK_STATE_DIR}" --wait 2m >&2; then
    warn "no savepoint: canceling ${LONGHAUL_JOB_NAME} (its retained checkpoints stay)"
    "${LONGHAUL_CLI}" job cancel --name "${LONGHAUL_JOB_NAME}" --wait 1m >&2 || true
  fi
}
