package flink

import (
	"archive/zip"
	"bufio"
	"fmt"
	"strings"
)

// jarVersionEntry is the build info Maven writes into the job jar (flink-jobs' BuildInfo).
const jarVersionEntry = "longhaul/version.properties"

// JarBuild is the job jar's build in one line, as the job prints it with --version:
// "longhaul-flink VERSION (commit C, built D, Java J)".
func JarBuild(jar string) (string, error) {
	z, err := zip.OpenReader(jar)
	if err != nil {
		return "", fmt.Errorf("job jar %s: %w", jar, err)
	}
	defer z.Close()
	f, err := z.Open(jarVersionEntry)
	if err != nil {
		return "", fmt.Errorf("job jar %s: no %s (built before versions were stamped?)", jar, jarVersionEntry)
	}
	defer f.Close()
	p := map[string]string{"version": "dev", "commit": "unknown", "built": "unknown", "java": "unknown"}
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		line := strings.TrimSpace(sc.Text())
		if k, v, ok := strings.Cut(line, "="); ok && !strings.HasPrefix(line, "#") {
			p[strings.TrimSpace(k)] = strings.TrimSpace(v)
		}
	}
	if err := sc.Err(); err != nil {
		return "", fmt.Errorf("job jar %s: %s: %w", jar, jarVersionEntry, err)
	}
	return fmt.Sprintf("longhaul-flink %s (commit %s, built %s, Java %s)", p["version"], p["commit"], p["built"], p["java"]), nil
}
