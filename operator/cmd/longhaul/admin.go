package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io/fs"
	"os"
	"strings"
	"text/template"
	"time"

	"longhaul/internal/kafkaadmin"

	"longhaul/internal/cli"
	"longhaul/internal/kafkaconn"
	"longhaul/internal/settings"
)

var adminApp = &cli.App{
	Name: "longhaul admin",
	Doc: "Kafka credentials and rights, through the admin listener with the admin certificate.\n" +
		"A password is never printed or taken on the command line: it lives in a file (0600).",
	Commands: []cli.Command{
		{Name: "add-agent", Summary: "create an agent's SCRAM credential and ACLs; print the config to paste on its host", Run: runAddAgent},
		{Name: "remove-agent", Summary: "revoke an agent at once: its ACLs, then its credential (replaced by one no one knows)", Run: runRemoveAgent},
		{Name: "add-pscheduler-host", Summary: "issue a pScheduler host its own certificate and write its archive files (Kafka, HTTP)", Run: runAddPSchedulerHost},
		{Name: "remove-pscheduler-host", Summary: "revoke one pScheduler host at once: its certificate can write nothing more", Run: runRemovePSchedulerHost},
		{Name: "add-bridge", Summary: "create a pScheduler bridge's own SCRAM credential, topics and ACLs, and set its central host list", Run: runAddBridge},
		{Name: "remove-bridge", Summary: "revoke a pScheduler bridge at once: its ACLs, its credential and its host list", Run: runRemoveBridge},
		{Name: "rotate", Summary: "give a user a new password (written to its file) without restarting the brokers", Run: runRotate},
	},
}

// adminFlags are where the admin listener is and the admin certificate.
type adminFlags struct{ admin, cert *string }

func addAdminFlags(fs *flag.FlagSet) adminFlags {
	return adminFlags{admin: settings.KafkaAdmin.String(fs), cert: settings.KafkaAdminCert.String(fs)}
}

func (f adminFlags) conn() (kafkaconn.Conn, error) {
	return kafkaconn.AdminFromSettings(*f.admin, *f.cert)
}

// do runs fn on the admin connection, within a minute.
func (f adminFlags) do(fn func(context.Context, kafkaconn.Conn) error) error {
	conn, err := f.conn()
	if err != nil {
		return err
	}
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	return fn(ctx, conn)
}

const agentSnippet = `# {{.Principal}}: paste into the agent's config (longhaul-probe) on its host, then copy
#   {{.PasswordFile}}  to  /etc/longhaul/kafka.password  (mode 0600, owned by the agent's user)
#   {{.CA}}  to  /etc/longhaul/ca.crt
kafka:
  bootstrap: [{{.Bootstrap}}]
  security: sasl_ssl
  tls:
    ca_file: /etc/longhaul/ca.crt
  sasl:
    user: {{.Principal}}
    password_file: /etc/longhaul/kafka.password
`

const addAgentDoc = `Creates the Kafka user agent-NAME (SCRAM-SHA-512) with the rights of an agent: write its own raw
topics (<raw topic>.agent-NAME, created here; the job takes from them samples of src NAME only)
and the dead-letter topic, read probe requests in its own group; nothing else. Run again on an
agent of an earlier release, it moves it to its own topics. Its password is FILE's when FILE
exists, else a new random one written to FILE (default ./agent-NAME.password, mode 0600). Its
quota (bytes a second on each broker; beyond it Kafka slows the agent down) is set each time.`

func runAddAgent(env *cli.Env, args []string) int {
	fs := env.FlagSet("NAME [--password-file FILE]", addAgentDoc)
	fs.ArgsUsage = "NAME"
	f := addAdminFlags(fs.FlagSet)
	c := addCredentialFlags(fs, "agent", kafkaadmin.AgentQuota)
	principal, code, done := nameArg(env, fs, args, "agent", kafkaadmin.AgentPrincipal)
	if done {
		return code
	}
	password, q, code, done := c.resolve(env, principal)
	if done {
		return code
	}
	if err := f.do(func(ctx context.Context, conn kafkaconn.Conn) error {
		return kafkaadmin.AddAgent(ctx, conn, principal, password, q, env.Stderr)
	}); err != nil {
		return env.Fail("%v", err)
	}
	err := template.Must(template.New("snippet").Parse(agentSnippet)).Execute(env.Stdout, map[string]string{
		"Principal": principal, "PasswordFile": *c.pwFile, "CA": settings.KafkaCA.Value(),
		"Bootstrap": strings.Join(settings.List(settings.Kafka.Value()), ", "),
	})
	if err != nil {
		return env.Fail("%v", err)
	}
	return cli.ExitOK
}

// credentialFlags are a SCRAM identity's password file and quota (add-agent, add-bridge).
type credentialFlags struct {
	pwFile         *string
	produce, fetch *int64
}

func addCredentialFlags(fs *cli.FlagSet, what string, q kafkaadmin.Quota) credentialFlags {
	return credentialFlags{
		pwFile:  fs.String("password-file", "", "the "+what+"'s password file (made when absent)"),
		produce: fs.Int64("produce-quota", q.ProduceBps, "bytes a second the "+what+" may write to each broker (Kafka slows it down beyond)"),
		fetch:   fs.Int64("fetch-quota", q.FetchBps, "bytes a second the "+what+" may read from each broker"),
	}
}

// resolve is principal's password (its file's, or a new one written to it: default
// ./PRINCIPAL.password) and quota; done reports that the command ends with code.
func (c credentialFlags) resolve(env *cli.Env, principal string) (password string, q kafkaadmin.Quota, code int, done bool) {
	if *c.produce <= 0 || *c.fetch <= 0 {
		return "", q, env.UsageError("--produce-quota and --fetch-quota must be positive"), true
	}
	if *c.pwFile == "" {
		*c.pwFile = principal + ".password"
	}
	password, err := passwordIn(*c.pwFile, false)
	if err != nil {
		return "", q, env.Fail("%v", err), true
	}
	return password, kafkaadmin.Quota{ProduceBps: *c.produce, FetchBps: *c.fetch}, 0, false
}

const removeAgentDoc = `Deletes agent-NAME's ACLs (refused from its next request on) and replaces its SCRAM credential
by one made from a random password kept nowhere (no new login). add-agent NAME makes it live again.
Its own raw topics keep their records (the job may not have read them yet; retention empties them)
unless --delete-topics, for a site that is gone for good: their records are deleted, the topics
stay (a topic the job's checkpoints name must exist for the job to restore).`

func runRemoveAgent(env *cli.Env, args []string) int {
	fs := env.FlagSet("NAME [--delete-topics]", removeAgentDoc)
	fs.ArgsUsage = "NAME"
	f := addAdminFlags(fs.FlagSet)
	deleteTopics := fs.Bool("delete-topics", false, "also delete every record of the agent's own raw topics, keeping the empty topics (what the job has not read is lost)")
	principal, code, done := nameArg(env, fs, args, "agent", kafkaadmin.AgentPrincipal)
	if done {
		return code
	}
	if err := f.do(func(ctx context.Context, conn kafkaconn.Conn) error {
		if err := kafkaadmin.RevokeUser(ctx, conn, principal, env.Stdout); err != nil || !*deleteTopics {
			return err
		}
		return kafkaadmin.PurgeOwnTopics(ctx, conn, principal, env.Stdout)
	}); err != nil {
		return env.Fail("%v", err)
	}
	return cli.ExitOK
}

const rotateDoc = `Writes a new random password to FILE and gives it to USER (an agent-… or a service user);
clients pick it up at their next authentication from the same file. Brokers keep running.`

func runRotate(env *cli.Env, args []string) int {
	fs := env.FlagSet("USER --password-file FILE", rotateDoc)
	fs.ArgsUsage = "USER"
	f := addAdminFlags(fs.FlagSet)
	pwFile := fs.String("password-file", "", "the user's password file (required; overwritten)")
	if code, done := fs.Parse(args); done {
		return code
	}
	if fs.NArg() != 1 || *pwFile == "" {
		return env.UsageError("give one USER and --password-file")
	}
	user := fs.Args()[0]
	if len(kafkaadmin.ACLs(user)) == 0 && user != kafkaadmin.Admin {
		return env.UsageError("%s is not a Longhaul user (admin, flink, telegraf, operator or agent-…)", user)
	}
	password, err := passwordIn(*pwFile, true)
	if err != nil {
		return env.Fail("%v", err)
	}
	if err := f.do(func(ctx context.Context, conn kafkaconn.Conn) error {
		return kafkaadmin.SetUser(ctx, conn, user, password, env.Stdout)
	}); err != nil {
		return env.Fail("%v", err)
	}
	return cli.ExitOK
}

// nameArg parses the command line and returns its one NAME argument as a principal (of: the
// role's principal of a name); done reports that the command ends with code (help, usage error).
func nameArg(env *cli.Env, fs *cli.FlagSet, args []string, what string, of func(string) (string, error)) (principal string, code int, done bool) {
	if code, done := fs.Parse(args); done {
		return "", code, true
	}
	if fs.NArg() != 1 {
		return "", env.UsageError("give one %s NAME (got %d)", what, fs.NArg()), true
	}
	principal, err := of(fs.Args()[0])
	if err != nil {
		return "", env.UsageError("%v", err), true
	}
	return principal, 0, false
}

// onOnePrincipal runs fn on the admin connection for the one NAME of the command line, as the
// principal of: a command with no flag of its own but the admin's (remove-bridge,
// remove-pscheduler-host).
func onOnePrincipal(env *cli.Env, fs *cli.FlagSet, args []string, what string, of func(string) (string, error),
	fn func(ctx context.Context, conn kafkaconn.Conn, principal string) error) int {
	fs.ArgsUsage = "NAME"
	f := addAdminFlags(fs.FlagSet)
	principal, code, done := nameArg(env, fs, args, what, of)
	if done {
		return code
	}
	if err := f.do(func(ctx context.Context, conn kafkaconn.Conn) error { return fn(ctx, conn, principal) }); err != nil {
		return env.Fail("%v", err)
	}
	return cli.ExitOK
}

// passwordIn is the password of a file, made (random, 0600) when the file is absent or when
// fresh is set.
func passwordIn(path string, fresh bool) (string, error) {
	if !fresh {
		pw, err := settings.Secret(path)
		if err == nil {
			return pw, nil
		}
		if _, statErr := os.Stat(path); !errors.Is(statErr, fs.ErrNotExist) {
			return "", err
		}
	}
	pw, err := kafkaadmin.NewPassword()
	if err != nil {
		return "", err
	}
	if err := os.WriteFile(path, []byte(pw), 0o600); err != nil {
		return "", fmt.Errorf("password file: %w", err)
	}
	if err := os.Chmod(path, 0o600); err != nil {
		return "", err
	}
	return pw, nil
}
