package kafkaadmin

import (
	"context"
	"crypto/rand"
	"encoding/base64"
	"fmt"
	"io"

	"github.com/twmb/franz-go/pkg/kadm"

	"longhaul/internal/kafkaconn"
)

// scramIterations is SCRAM-SHA-512's iteration count for every user (Kafka accepts 4096-16384).
const scramIterations = 8192

// SetUser creates or updates principal's SCRAM-SHA-512 credential to password and grants its
// role's ACLs (again: granting an existing ACL changes nothing). A password change applies to the
// next authentication, without restarting the broker.
func SetUser(ctx context.Context, conn kafkaconn.Conn, principal, password string, log io.Writer) error {
	return withAdmin(conn, func(adm *kadm.Client) error {
		if err := upsertSCRAM(ctx, adm, principal, password); err != nil {
			return fmt.Errorf("kafka user %s: set its SCRAM credential: %w", principal, err)
		}
		n, err := grant(ctx, adm, principal)
		if err == nil {
			fmt.Fprintf(log, "kafka user %s ready (SCRAM-SHA-512, %d ACLs)\n", principal, n)
		}
		return err
	})
}

// GrantACLs grants a certificate principal (CertPrincipals) its role's ACLs; it has no SCRAM
// credential.
func GrantACLs(ctx context.Context, conn kafkaconn.Conn, principal string, log io.Writer) error {
	return withAdmin(conn, func(adm *kadm.Client) error {
		n, err := grant(ctx, adm, principal)
		if err == nil {
			fmt.Fprintf(log, "kafka principal %s ready (certificate CN=%s, %d ACLs)\n", principal, principal, n)
		}
		return err
	})
}

// withAdmin runs fn with an admin client of conn, closed after it.
func withAdmin(conn kafkaconn.Conn, fn func(*kadm.Client) error) error {
	adm, err := conn.NewAdmin()
	if err != nil {
		return err
	}
	defer adm.Close()
	return fn(adm)
}

// grant creates principal's ACLs (again: granting an existing ACL changes nothing), then deletes
// those its role no longer grants (dropStale).
func grant(ctx context.Context, adm *kadm.Client, principal string) (int, error) {
	n, err := create(ctx, adm, principal)
	if err != nil {
		return n, err
	}
	_, err = dropStale(ctx, adm, principal)
	return n, err
}

// create creates principal's ACLs.
func create(ctx context.Context, adm *kadm.Client, principal string) (int, error) {
	n := 0
	for _, b := range ACLs(principal) {
		res, err := adm.CreateACLs(ctx, b)
		if err != nil {
			return n, fmt.Errorf("kafka user %s: grant ACLs: %w", principal, err)
		}
		for _, r := range res {
			if r.Err != nil { // CreateACLs answers nil with per-ACL errors: check each
				return n, fmt.Errorf("kafka user %s: ACL %v %s on %s: %w %s", principal, r.Operation, r.Pattern, r.Name, r.Err, r.ErrMessage)
			}
			n++
		}
	}
	return n, nil
}

// RevokeUser revokes a principal at once: its ACLs go first (every request it makes from
// then on is refused, even on a connection already authenticated), then its credential is
// replaced by one made from a random password that is kept nowhere (no new connection
// authenticates). The credential is replaced, never deleted: Kafka 4.3 and 4.4 lose every SCRAM
// credential when a broker rebuilds them from a metadata log whose first user (in
// ScramDelta.apply's HashMap order) is a deleted one, and every login is refused after that
// restart (collectors/internal/kafkatest's restart test). `add-agent` on the name makes it live
// again.
func RevokeUser(ctx context.Context, conn kafkaconn.Conn, principal string, log io.Writer) error {
	return withAdmin(conn, func(adm *kadm.Client) error {
		deleted, err := deleteACLs(ctx, adm, principal)
		if err != nil {
			return err
		}
		unknown, err := NewPassword()
		if err != nil {
			return fmt.Errorf("kafka user %s: %w", principal, err)
		}
		if err := upsertSCRAM(ctx, adm, principal, unknown); err != nil {
			return fmt.Errorf("kafka user %s: replace its SCRAM credential: %w", principal, err)
		}
		fmt.Fprintf(log, "kafka user %s revoked (%d ACLs deleted, its credential replaced by one no one knows)\n", principal, deleted)
		return nil
	})
}

// RevokeCert revokes a certificate principal at once: its ACLs are deleted, so every request it
// makes from then on is refused. Kafka has no certificate revocation: the certificate still
// completes a TLS handshake until it expires, and can do nothing.
func RevokeCert(ctx context.Context, conn kafkaconn.Conn, principal string, log io.Writer) error {
	return withAdmin(conn, func(adm *kadm.Client) error {
		deleted, err := deleteACLs(ctx, adm, principal)
		if err == nil {
			fmt.Fprintf(log, "kafka principal %s revoked (%d ACLs deleted; its certificate can no longer write)\n", principal, deleted)
		}
		return err
	})
}

// deleteACLs deletes every ACL of principal; it returns how many.
func deleteACLs(ctx context.Context, adm *kadm.Client, principal string) (int, error) {
	b := kadm.NewACLs().Allow("User:" + principal).AnyResource().ResourcePatternType(kadm.ACLPatternAny).
		Operations(kadm.OpAny).AllowHosts()
	res, err := adm.DeleteACLs(ctx, b)
	if err != nil {
		return 0, fmt.Errorf("kafka user %s: delete ACLs: %w", principal, err)
	}
	deleted := 0
	for _, r := range res {
		if r.Err != nil {
			return deleted, fmt.Errorf("kafka user %s: delete ACLs: %w %s", principal, r.Err, r.ErrMessage)
		}
		deleted += len(r.Deleted)
	}
	return deleted, nil
}

// upsertSCRAM creates or replaces principal's SCRAM-SHA-512 credential, made from password.
func upsertSCRAM(ctx context.Context, adm *kadm.Client, principal, password string) error {
	altered, err := adm.AlterUserSCRAMs(ctx, nil, []kadm.UpsertSCRAM{{User: principal, Mechanism: kadm.ScramSha512,
		Iterations: scramIterations, Password: password}})
	if err == nil {
		err = altered.Error()
	}
	return err
}

// NewPassword is a new random password: 24 random bytes (192 bits), base64url.
func NewPassword() (string, error) {
	raw := make([]byte, 24)
	if _, err := rand.Read(raw); err != nil {
		return "", fmt.Errorf("random password: %w", err)
	}
	return base64.RawURLEncoding.EncodeToString(raw), nil
}
