package kafkaadmin

import (
	"regexp"
	"testing"
)

func TestNewPasswordsAre192RandomBitsInBase64url(t *testing.T) {
	base64url := regexp.MustCompile(`^[A-Za-z0-9_-]{32}$`)
	seen := map[string]bool{}
	for i := 0; i < 1000; i++ {
		pw, err := NewPassword()
		if err != nil {
			t.Fatal(err)
		}
		if !base64url.MatchString(pw) {
			t.Fatalf("%q is not 32 base64url characters", pw)
		}
		if seen[pw] {
			t.Fatalf("%q made twice in %d", pw, i+1)
		}
		seen[pw] = true
	}
}
