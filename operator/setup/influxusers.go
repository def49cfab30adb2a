package setup

import (
	"context"
	"fmt"
	"io"
	"path/filepath"
	"strings"

	"longhaul/internal/settings"
	"longhaul/operator/influx"
)

// InfluxUser is a user `longhaul setup` keeps on the database, with its one privilege.
type InfluxUser struct {
	Name      string
	Privilege string // WRITE or READ
}

// InfluxUsers: Telegraf writes as writer (and cannot read); the CLI, reports and Grafana read
// as reader (and cannot write). The admin exists from InfluxDB's first start.
var InfluxUsers = []InfluxUser{{"writer", "WRITE"}, {"reader", "READ"}}

// InfluxPasswordFile is where a user's password is kept in a secrets folder.
func InfluxPasswordFile(dir, user string) string {
	return filepath.Join(dir, "influx-"+user+".password")
}

// EnsureInfluxUsers creates each of InfluxUsers with the password of its file in dir, or sets
// that password if the user exists (rotation: change the file, run setup again), and grants its
// privilege on db (a GRANT replaces the user's earlier privilege on db). c must be an admin.
// Then it checks that writer may write. Passwords are never printed, nor in any error.
func EnsureInfluxUsers(ctx context.Context, c *influx.Client, db, dir string, log io.Writer) error {
	for _, u := range InfluxUsers {
		pw, err := settings.Secret(InfluxPasswordFile(dir, u.Name))
		if err != nil {
			return fmt.Errorf("influxdb user %s: %w", u.Name, err)
		}
		err = c.ExecSecret(ctx, fmt.Sprintf("CREATE USER %q WITH PASSWORD %s", u.Name, quoteString(pw)), pw)
		if err != nil && strings.Contains(err.Error(), "user already exists") {
			// same name, another password: the file is what counts
			err = c.ExecSecret(ctx, fmt.Sprintf("SET PASSWORD FOR %q = %s", u.Name, quoteString(pw)), pw)
		}
		if err == nil {
			err = c.Exec(ctx, fmt.Sprintf("GRANT %s ON %q TO %q", u.Privilege, db, u.Name))
		}
		if err == nil && u.Privilege == "WRITE" {
			err = c.WithUser(u.Name, pw).CheckWrite(ctx)
		}
		if err != nil {
			return fmt.Errorf("influxdb user %s: %w", u.Name, err)
		}
	}
	names := make([]string, len(InfluxUsers))
	for i, u := range InfluxUsers {
		names[i] = fmt.Sprintf("%s (%s)", u.Name, u.Privilege)
	}
	fmt.Fprintf(log, "influxdb users on %s ready: %s\n", db, strings.Join(names, ", "))
	return nil
}

// quoteString is an InfluxQL string literal: single quotes, with \ and ' escaped.
func quoteString(s string) string {
	return "'" + strings.NewReplacer(`\`, `\\`, `'`, `\'`).Replace(s) + "'"
}
