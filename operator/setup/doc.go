// Package setup creates what the pipeline needs on its services besides Kafka's (which is
// internal/kafkaadmin's): the InfluxDB database with its retention policies and users, the
// stack's certificates, and the archive files of pScheduler hosts.
package setup
