"""bench/cpu_budget: the CPU each record costs each process, from /proc."""

import pathlib
import subprocess
import sys
import time

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parents[2] / "bench"))
import cpu_budget


def test_roles_by_command_line():
    assert (
        cpu_budget.role("java -cp x org.apache.flink.runtime.taskexecutor.TaskManagerRunner") == "taskmanager"
    )
    assert (
        cpu_budget.role("java org.apache.flink.runtime.entrypoint.StandaloneSessionClusterEntrypoint")
        == "jobmanager"
    )
    assert cpu_budget.role("java -Xmx384m kafka.Kafka server.properties") == "kafka"
    assert cpu_budget.role("/opt/telegraf/telegraf --config t.conf") == "telegraf"
    assert cpu_budget.role("/opt/influxdb/influxd -config i.conf") == "influxdb"
    assert cpu_budget.role("/usr/lib/systemd/systemd-socket-proxyd 127.0.0.1:8086") == "influxdb"
    assert cpu_budget.role("java org.longhaul.flink.bench.BareConsumerBench a,b 10") == "bare consumer"
    assert cpu_budget.role("/usr/bin/sshd -D") is None


def snap(t, busy, total, procs, steal=0):
    return {"t": t, "busy": busy, "steal": steal, "total": total, "procs": procs}


def test_per_record_splits_the_machine_by_role():
    hz = cpu_budget.CLK_TCK
    # 10 s on 2 cores: 18 s of CPU busy, the TaskManager 12 s, Kafka 3 s, the rest elsewhere
    a = snap(0.0, 0, 0, {(10, 1): ("taskmanager", 0), (20, 1): ("kafka", 100 * hz)})
    b = snap(10.0, 18 * hz, 20 * hz, {(10, 1): ("taskmanager", 12 * hz), (20, 1): ("kafka", 103 * hz)})
    r = cpu_budget.per_record(a, b, 1_000_000)
    assert r["us_per_record"] == {"taskmanager": 12.0, "kafka": 3.0, "other": 3.0}
    assert r["machine_us_per_record"] == 18.0
    assert r["cores_busy"] == 1.8 and r["cores"] == 2.0


def test_threads_are_summed_by_name():
    hz = cpu_budget.CLK_TCK
    a = snap(0.0, 0, 0, {(10, 1): ("taskmanager", 0)})
    a["threads"] = {(10, 11): ("GC Thread", 0), (10, 12): ("GC Thread", 0), (10, 13): ("Source: source:", 0)}
    b = snap(1.0, 2 * hz, 2 * hz, {(10, 1): ("taskmanager", 2 * hz)})
    b["threads"] = {
        (10, 11): ("GC Thread", hz // 2),
        (10, 12): ("GC Thread", hz // 2),
        (10, 13): ("Source: source:", hz),
        (10, 14): ("new", hz),
    }
    r = cpu_budget.per_record(a, b, 1_000_000)
    assert r["threads_us_per_record"] == {"GC Thread": 1.0, "Source: source:": 1.0}


def test_a_process_started_in_between_is_not_counted_as_its_role():
    hz = cpu_budget.CLK_TCK
    a = snap(0.0, 0, 0, {(10, 1): ("taskmanager", 0)})
    b = snap(1.0, 2 * hz, 2 * hz, {(10, 1): ("taskmanager", hz), (11, 5): ("taskmanager", 50 * hz)})
    r = cpu_budget.per_record(a, b, 1_000_000)
    assert r["us_per_record"]["taskmanager"] == 1.0
    assert r["us_per_record"]["other"] == 1.0


def test_no_records_no_budget():
    s = snap(0.0, 0, 0, {})
    assert cpu_budget.per_record(s, snap(1.0, 1, 1, {}), 0) is None


def test_ceiling_keeps_what_the_other_processes_cost():
    # job: 20 µs a record on 1.8 cores, 12 of them the TaskManager; bare: 5 µs on 1.0 core, 3 its own
    job = {
        "us_per_record": {"taskmanager": 12.0, "kafka": 3.0, "telegraf": 5.0},
        "machine_us_per_record": 20.0,
        "cores_busy": 1.8,
    }
    bare = {
        "us_per_record": {"bare consumer": 3.0, "kafka": 2.0},
        "machine_us_per_record": 5.0,
        "cores_busy": 1.0,
    }
    # floor 20 - 12 + 3 = 11 µs: 1.8/11 against 1.0/5
    assert cpu_budget.ceiling(job, bare) == round((1.8 / 11) / (1.0 / 5), 2)
    assert cpu_budget.ceiling(None, bare) is None


def test_snapshot_reads_a_live_process_cpu():
    # a process whose command line names a role, burning CPU for a moment
    burn = "import time\nprint('on', flush=True)\nt=time.time()\nwhile time.time()-t<1.5: pass\ntime.sleep(5)"
    p = subprocess.Popen([sys.executable, "-c", burn, "TaskManagerRunner"], stdout=subprocess.PIPE, text=True)
    try:
        assert p.stdout.readline() == "on\n"  # its command line is its own from here on
        a = cpu_budget.snapshot()
        time.sleep(1.0)
        b = cpu_budget.snapshot()
        mine = [k for k in b["procs"] if k[0] == p.pid]
        assert mine and b["procs"][mine[0]][0] == "taskmanager"
        r = cpu_budget.per_record(a, b, 1)
        assert r["us_per_record"]["taskmanager"] > 0
        # its threads by name, the trailing version digits dropped ("python3" -> "python")
        assert r["threads_us_per_record"].get("python", 0) > 0, r["threads_us_per_record"]
        assert b["busy"] > a["busy"] and b["total"] > a["total"]
    finally:
        p.kill()
        p.wait()


def test_the_benchmarks_own_process_is_no_role_whatever_its_name():
    # bench/telegraf_burst.py's command line holds "telegraf": its producing is not Telegraf's CPU
    probe = (
        "import os, sys\n"
        f"sys.path.insert(0, {str(pathlib.Path(cpu_budget.__file__).parent)!r})\n"
        "import cpu_budget\n"
        "print(any(pid == os.getpid() for pid, _ in cpu_budget.snapshot()['procs']))\n"
    )
    out = subprocess.run(
        [sys.executable, "-c", probe, "bench/telegraf_burst.py"], capture_output=True, text=True, check=True
    )
    assert out.stdout.strip() == "False", out.stderr
    assert cpu_budget.role(f"{sys.executable} -c x bench/telegraf_burst.py") == "telegraf"  # why it must
