package main

import (
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"

	"longhaul/internal/cli"
	"longhaul/internal/settings"
)

const replayUsage = `usage: longhaul replay [--input FILE|-] [--stats] [--<detector>.<param> VALUE]...

Runs exactly the job graph of the Flink job (validation, link statistics, every detector) on a
local MiniCluster over a bounded file of raw samples in JSON Lines, as longhaul-probe parse
emits them, and prints every event as JSON Lines on stdout (--stats adds link statistics).
Dead letters and diagnostics go to stderr. No Kafka is needed.

  --input FILE|-   raw samples (default: stdin)
  --stats          also print link_stats messages
  --<d>.<param>    detector parameters, e.g. --collapse.drop 0.4 (flink-jobs/src/main/java/org/longhaul/flink/functions/detect/README.md)

Environment: LONGHAUL_FLINK_JAR (default bin/longhaul-flink.jar beside this program),
FLINK_HOME (a Flink 2.2 distribution; default the native stack's in LONGHAUL_STACK_CACHE, else the
Maven build's flink-jobs/target/replay.classpath),
LONGHAUL_JAVA_HOME (a JDK 17), LONGHAUL_REPLAY_HEAP (default 768m).
`

// jvmOpens are the module openings Flink needs on JDK 17 (as Flink's own config.yaml sets).
var jvmOpens = []string{"java.lang", "java.util", "java.lang.reflect", "java.io", "java.net", "java.nio",
	"sun.nio.ch", "java.time", "java.util.concurrent"}

// runReplay hands every argument to the job graph's own parser (Replay exits 2 on a bad one).
func runReplay(env *cli.Env, args []string) int {
	for _, a := range args {
		if a == "-h" || a == "--help" {
			fmt.Fprint(env.Stdout, replayUsage)
			return cli.ExitOK
		}
	}
	argv, err := replayCommand(args)
	if err != nil {
		return env.Fail("%v", err)
	}
	cmd := exec.Command(argv[0], argv[1:]...)
	cmd.Stdin, cmd.Stdout, cmd.Stderr = env.Stdin, env.Stdout, env.Stderr
	if err := cmd.Run(); err != nil {
		var exit *exec.ExitError
		if errors.As(err, &exit) {
			return exit.ExitCode()
		}
		return env.Fail("%v", err)
	}
	return cli.ExitOK
}

// replayCommand builds the java command line: the job jar plus a Flink runtime.
func replayCommand(args []string) ([]string, error) {
	jar := settings.FlinkJar.Value()
	if _, err := os.Stat(jar); err != nil {
		return nil, fmt.Errorf("job jar %s not found (%s; in a checkout: make build-flink)", jar, settings.FlinkJar.Env)
	}
	runtime, err := flinkRuntime()
	if err != nil {
		return nil, err
	}
	java := "java"
	if home := os.Getenv("LONGHAUL_JAVA_HOME"); home != "" {
		java = filepath.Join(home, "bin", "java")
	}
	argv := []string{java, "-Xmx" + envOr("LONGHAUL_REPLAY_HEAP", "768m")}
	for _, p := range jvmOpens {
		argv = append(argv, "--add-opens=java.base/"+p+"=ALL-UNNAMED")
	}
	argv = append(argv, "-cp", jar+string(os.PathListSeparator)+runtime, "org.longhaul.flink.replay.Replay")
	return append(argv, args...), nil
}

// flinkRuntime is the classpath of Flink's runtime: $FLINK_HOME/lib, else the native stack's
// distribution, else the file LONGHAUL_REPLAY_CLASSPATH names (flink-jobs' Maven build writes
// target/replay.classpath: the runtime's jars in the local Maven repository).
func flinkRuntime() (string, error) {
	cands := []string{}
	if h := os.Getenv("FLINK_HOME"); h != "" {
		cands = append(cands, filepath.Join(h, "lib"))
	}
	// the stack's cache: LONGHAUL_STACK_CACHE, else its default (scripts/stack/defaults.env: the
	// user's cache folder, which os.UserCacheDir finds by the same rule)
	caches := []string{os.Getenv("LONGHAUL_STACK_CACHE")}
	if user, err := os.UserCacheDir(); err == nil {
		caches = append(caches, filepath.Join(user, "longhaul", "stack"))
	}
	for _, cache := range caches {
		if cache != "" {
			matches, _ := filepath.Glob(filepath.Join(cache, "flink-*", "site", "pyflink", "lib"))
			cands = append(cands, matches...)
		}
	}
	for _, c := range cands {
		if jars, _ := filepath.Glob(filepath.Join(c, "flink-dist*.jar")); len(jars) > 0 {
			return filepath.Join(c, "*"), nil
		}
	}
	if built := os.Getenv("LONGHAUL_REPLAY_CLASSPATH"); built != "" {
		cp, err := os.ReadFile(built)
		if err == nil && len(strings.TrimSpace(string(cp))) > 0 {
			return strings.TrimSpace(string(cp)), nil
		}
		cands = append(cands, built)
	}
	return "", fmt.Errorf("no Flink runtime: set FLINK_HOME, run make up once (it installs Flink in LONGHAUL_STACK_CACHE) "+
		"or build flink-jobs with Maven and set LONGHAUL_REPLAY_CLASSPATH to its target/replay.classpath; looked in %s",
		strings.Join(cands, ", "))
}

func envOr(key, def string) string {
	if v := os.Getenv(key); v != "" {
		return v
	}
	return def
}
