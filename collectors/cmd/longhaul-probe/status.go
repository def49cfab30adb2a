package main

import (
	"context"
	"fmt"
	"time"

	"longhaul/collectors/agent"
	"longhaul/collectors/config"
	"longhaul/internal/cli"
)

const statusDoc = `Asks a running agent how it is, through its health endpoint (health.listen in its config),
and prints it for a person: Kafka (connected, unreachable, or refused with the reason and
what to fix), the spool, the samples and the probes. --json prints GET /health as it is.
Prints no secret: the agent serves none. Exits 0 when the agent says ok, 1 when it is
degraded or refused or does not answer.`

// statusCmd is `longhaul-probe status`.
func statusCmd(env *cli.Env, args []string) int {
	fs := env.FlagSet("[--health HOST:PORT] [--json]", statusDoc)
	addr := fs.String("health", config.DefaultHealthListen, "the agent's health endpoint, `HOST:PORT` (its health.listen)")
	raw := fs.Bool("json", false, "print GET /health as the agent serves it")
	if code, done := fs.Parse(args); done {
		return code
	}
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	h, body, err := agent.FetchHealth(ctx, *addr)
	if err != nil {
		return env.Fail("%v", err)
	}
	if *raw {
		fmt.Fprintf(env.Stdout, "%s", body)
	} else {
		agent.WriteStatus(env.Stdout, h, time.Now())
	}
	if h.Status != "ok" {
		return cli.ExitFailure
	}
	return cli.ExitOK
}
