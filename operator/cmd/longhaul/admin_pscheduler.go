package main

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"text/template"
	"time"

	"longhaul/internal/kafkaadmin"

	"longhaul/ingest/contract"
	"longhaul/internal/cli"
	"longhaul/internal/kafkaconn"
	"longhaul/internal/settings"
	"longhaul/operator/setup"
	"longhaul/perfsonar/psbridge"
)

// pSchedulerHostNext is what add-pscheduler-host prints: where each file goes on the host, and
// the one command that makes its HTTP archiver trust the bridge. No secret is printed.
const pSchedulerHostNext = `# {{.Principal}}: certificate CN={{.Principal}} issued by {{.CASubject}}, valid until {{.NotAfter}};
# it may write {{.Topic}} and nothing else. Files in {{.Dir}} (mode 0600: they hold the key{{if .HTTP}} and the token{{end}}).
# On the pScheduler host, as root:
{{- if .HTTP}}
#   HTTP archiver (retries; recommended):
#     install -m 0640 -g pscheduler {{.HTTP}} /etc/pscheduler/default-archives/longhaul-http.json
#   and make its pycurl trust the stack's CA (it reads only the system store), once:
#     Debian/Ubuntu: install -m 0644 {{.CA}} /usr/local/share/ca-certificates/longhaul.crt && update-ca-certificates
#     EL:            install -m 0644 {{.CA}} /etc/pki/ca-trust/source/anchors/longhaul.crt && update-ca-trust
{{- end}}
#   Kafka archiver{{if .HTTP}} (or instead; it drops a result it cannot deliver){{end}}:
#     install -m 0640 -g pscheduler {{.Kafka}} /etc/pscheduler/default-archives/longhaul-kafka.json
# Check with: pscheduler task --archive @/etc/pscheduler/default-archives/longhaul-{{if .HTTP}}http{{else}}kafka{{end}}.json rtt --dest HOST
# On the pScheduler bridge, name the hosts it may report for (a result for any other is a dead letter):
#   pscheduler_bridge: {hosts: {{"{"}}{{.Principal}}: [THIS-HOST, ...]{{if .Token}}, {{.HTTPIdentity}}: [THIS-HOST, ...]{{end}}{{"}"}}}
{{- if .Token}}
# and give it the host's own HTTP token (its host_tokens_dir; the bridge reads it from the next post):
#   install -m 0600 -o longhaul-probe {{.Token}} /etc/longhaul/psbridge-hosts/{{.Name}}.token
{{- end}}
# Revoke with: longhaul admin remove-pscheduler-host {{.Name}}{{if .Token}}, and delete its token from the bridge's host_tokens_dir{{end}}
`

const addPSchedulerHostDoc = `Issues pScheduler host NAME a client certificate of its own (CN=pscheduler-NAME, signed by the
CA of --kafka-ca with --ca-key), creates its own archivers' topic (longhaul.pscheduler.results.
pscheduler-NAME) and grants it the right to write that and nothing else, and writes the archive
files that host's /etc/pscheduler/default-archives/ takes:
longhaul-kafka.json (the Kafka archiver, with the PEM contents), and with --bridge-url
longhaul-http.json (the HTTP archiver to the pScheduler bridge, with its bearer token): a token
of the host's own, also written as NAME.token for the bridge's host_tokens_dir (the bridge knows
the host by it: identity http-NAME), or with --bridge-token-file the one every host shares.
Files go to DIR (default ./pscheduler-NAME), mode 0600; what to do with them is printed.`

func runAddPSchedulerHost(env *cli.Env, args []string) int {
	fs := env.FlagSet("NAME [--out DIR] [--bridge-url URL [--bridge-token-file FILE]]", addPSchedulerHostDoc)
	fs.ArgsUsage = "NAME"
	f := addAdminFlags(fs.FlagSet)
	caCert, caKey := settings.KafkaCA.String(fs.FlagSet), settings.CAKey.String(fs.FlagSet)
	archiver := settings.KafkaArchiver.String(fs.FlagSet)
	out := fs.String("out", "", "folder for the host's files (default ./pscheduler-NAME)")
	days := fs.Int("days", 365, "days the certificate is valid")
	bridgeURL := fs.String("bridge-url", "", "the pScheduler bridge's URL as the host reaches it (https://HOST:PORT/pscheduler/results)")
	tokenFile := fs.String("bridge-token-file", "", "file holding the bearer token every host shares (the bridge's token_file); default: a token of the host's own")
	principal, code, done := nameArg(env, fs, args, "pScheduler host", kafkaadmin.PSchedulerHostPrincipal)
	if done {
		return code
	}
	name := strings.TrimPrefix(principal, kafkaadmin.PSchedulerHostPrefix)
	if *days < 1 || *days > 825 {
		return env.UsageError("--days %d: from 1 to 825", *days)
	}
	if *tokenFile != "" && *bridgeURL == "" {
		return env.UsageError("--bridge-token-file needs --bridge-url")
	}
	var token string
	var err error
	own := *bridgeURL != "" && *tokenFile == ""
	switch {
	case *tokenFile != "":
		if token, err = settings.Secret(*tokenFile); err != nil {
			return env.Fail("%v", err)
		}
	case own:
		if token, err = kafkaadmin.NewPassword(); err != nil {
			return env.Fail("%v", err)
		}
	}
	if *out == "" {
		*out = principal
	}
	ca, err := setup.LoadCA(*caCert, *caKey)
	if err != nil {
		return env.Fail("%v", err)
	}
	files, err := pSchedulerHostFiles(ca, principal, settings.List(*archiver), *bridgeURL, token, time.Duration(*days)*24*time.Hour)
	if err != nil {
		return env.Fail("%v", err)
	}
	if own {
		files.byName[name+psbridge.TokenSuffix] = []byte(token)
	}
	written, err := writePrivate(*out, files)
	if err != nil {
		return env.Fail("%v", err)
	}
	if err := f.do(func(ctx context.Context, conn kafkaconn.Conn) error {
		if _, err := kafkaadmin.EnsureOwnTopics(ctx, conn, principal, env.Stderr); err != nil {
			return err
		}
		if err := kafkaadmin.GrantACLs(ctx, conn, principal, env.Stderr); err != nil {
			return err
		}
		q, _ := kafkaadmin.QuotaOf(principal)
		return kafkaadmin.SetQuota(ctx, conn, principal, q, env.Stderr)
	}); err != nil {
		return env.Fail("%v", err)
	}
	view := map[string]string{"Principal": principal, "Name": name, "CASubject": ca.Cert.Subject.String(),
		"NotAfter": files.notAfter.UTC().Format(time.DateOnly), "Topic": contract.ArchiverTopic(principal), "Dir": *out,
		"Kafka": written["longhaul-kafka.json"], "HTTP": written["longhaul-http.json"], "CA": written["ca.crt"],
		"Token": written[name+psbridge.TokenSuffix], "HTTPIdentity": contract.HTTPHostPrefix + name}
	if err := template.Must(template.New("next").Parse(pSchedulerHostNext)).Execute(env.Stdout, view); err != nil {
		return env.Fail("%v", err)
	}
	return cli.ExitOK
}

// hostFiles are the files of one pScheduler host, by name.
type hostFiles struct {
	byName   map[string][]byte
	notAfter time.Time
}

// pSchedulerHostFiles issues the host's certificate and makes its archive files.
func pSchedulerHostFiles(ca *setup.CA, principal string, servers []string, bridgeURL, token string, validity time.Duration) (hostFiles, error) {
	cert, err := ca.IssueClient(principal, validity, time.Now())
	if err != nil {
		return hostFiles{}, err
	}
	password, err := kafkaadmin.NewPassword()
	if err != nil {
		return hostFiles{}, err
	}
	kafka, err := setup.KafkaArchive{Servers: servers, Topic: contract.ArchiverTopic(principal), ArchiverID: principal,
		CA: ca.CertPEM, Cert: cert.CertPEM, Key: cert.KeyPEM, Password: password}.JSON()
	if err != nil {
		return hostFiles{}, err
	}
	files := hostFiles{notAfter: cert.NotAfter, byName: map[string][]byte{
		"longhaul-kafka.json": kafka, "ca.crt": ca.CertPEM,
		principal + ".crt": cert.CertPEM, principal + ".key": cert.KeyPEM,
	}}
	if bridgeURL != "" {
		http, err := setup.HTTPArchive{URL: bridgeURL, Token: token}.JSON()
		if err != nil {
			return hostFiles{}, err
		}
		files.byName["longhaul-http.json"] = http
	}
	return files, nil
}

// writePrivate writes each file into dir (made 0700) with mode 0600, refusing to overwrite one;
// it returns the paths by name.
func writePrivate(dir string, files hostFiles) (map[string]string, error) {
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return nil, err
	}
	paths := map[string]string{}
	for name, b := range files.byName {
		p := filepath.Join(dir, name)
		fh, err := os.OpenFile(p, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o600)
		if err != nil {
			return nil, fmt.Errorf("%v (remove the folder of an earlier run first)", err)
		}
		if _, err := fh.Write(b); err != nil {
			fh.Close()
			return nil, err
		}
		if err := fh.Close(); err != nil {
			return nil, err
		}
		paths[name] = p
	}
	return paths, nil
}

const removePSchedulerHostDoc = `Revokes pScheduler host NAME at once: deletes the ACLs of pscheduler-NAME, so its certificate can
write nothing from its next request on (Kafka has no certificate revocation: the certificate still
completes a TLS handshake until it expires). Other pScheduler hosts are not touched. Its HTTP
archiver's own token is the bridge's: delete NAME.token from the bridge's host_tokens_dir.`

func runRemovePSchedulerHost(env *cli.Env, args []string) int {
	fs := env.FlagSet("NAME", removePSchedulerHostDoc)
	return onOnePrincipal(env, fs, args, "pScheduler host", kafkaadmin.PSchedulerHostPrincipal,
		func(ctx context.Context, conn kafkaconn.Conn, principal string) error {
			return kafkaadmin.RevokeCert(ctx, conn, principal, env.Stdout)
		})
}
