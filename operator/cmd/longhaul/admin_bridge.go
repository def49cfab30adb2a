package main

import (
	"context"
	"fmt"
	"strings"
	"time"

	"longhaul/internal/cli"
	"longhaul/internal/kafkaadmin"
	"longhaul/internal/kafkaconn"
	"longhaul/internal/settings"
)

const addBridgeDoc = `Creates the Kafka user psbridge-NAME (SCRAM-SHA-512) for one pScheduler bridge (a site's, or a
central fleet's): it reads the archivers' topics and shares what it converted like the shared
psbridge user, and writes its own raw topics (<raw topic>.psbridge-NAME, created here) and the
dead-letter topic. HOSTS is its central list (each pScheduler host's names and addresses as its
tests name them): the job takes from its topics the samples whose src is one of them, or whose dst
is one for a test the destination runs (throughput, latency flipped); any other is dead-lettered.
Run again to change the list (it replaces the old one) or the quota. Its password is FILE's
when FILE exists, else a new random one written to FILE (default ./psbridge-NAME.password,
mode 0600): the bridge's kafka.sasl.password_file.`

func runAddBridge(env *cli.Env, args []string) int {
	fs := env.FlagSet("NAME --hosts HOST[,HOST...] [--password-file FILE]", addBridgeDoc)
	fs.ArgsUsage = "NAME"
	f := addAdminFlags(fs.FlagSet)
	hostList := fs.String("hosts", "", "the hosts (srcs) the bridge may report for, comma-separated (required)")
	c := addCredentialFlags(fs, "bridge", kafkaadmin.BridgeQuota)
	principal, code, done := nameArg(env, fs, args, "bridge", kafkaadmin.BridgePrincipal)
	if done {
		return code
	}
	hosts := settings.List(*hostList)
	if len(hosts) == 0 {
		return env.UsageError("--hosts: give the hosts %s may report for", principal)
	}
	_, msg, err := kafkaadmin.NewBridgeHosts(principal, hosts, time.Now())
	if err != nil {
		return env.UsageError("--hosts: %v", err)
	}
	password, q, code, done := c.resolve(env, principal)
	if done {
		return code
	}
	if err := f.do(func(ctx context.Context, conn kafkaconn.Conn) error {
		// the list first: the job takes nothing from the bridge's topics before it has its list
		if err := kafkaadmin.SetBridgeHosts(ctx, conn, principal, msg, env.Stderr); err != nil {
			return err
		}
		return kafkaadmin.AddAgent(ctx, conn, principal, password, q, env.Stderr)
	}); err != nil {
		return env.Fail("%v", err)
	}
	fmt.Fprintf(env.Stdout, "%s: reports for %s; its config: kafka.sasl.user %s, kafka.sasl.password_file the contents of %s\n",
		principal, strings.Join(hosts, ", "), principal, *c.pwFile)
	return cli.ExitOK
}

const removeBridgeDoc = `Revokes psbridge-NAME at once: deletes its ACLs, replaces its SCRAM credential by one made from
a random password kept nowhere, and removes its host list, so the job takes nothing more from its
topics (what they hold is dead-lettered as it is read). add-bridge NAME makes it live again.`

func runRemoveBridge(env *cli.Env, args []string) int {
	fs := env.FlagSet("NAME", removeBridgeDoc)
	return onOnePrincipal(env, fs, args, "bridge", kafkaadmin.BridgePrincipal,
		func(ctx context.Context, conn kafkaconn.Conn, principal string) error {
			if err := kafkaadmin.RevokeUser(ctx, conn, principal, env.Stdout); err != nil {
				return err
			}
			return kafkaadmin.SetBridgeHosts(ctx, conn, principal, nil, env.Stdout)
		})
}
