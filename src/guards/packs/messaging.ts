/** The `messaging` pack (opt-in): deleting topics, queues and streams in Kafka, RabbitMQ, NATS, SQS/SNS, Pub/Sub and Pulsar. */
import type { RulePack } from "../types.ts";
import { verbRule } from "./_verbs.ts";
import { AWS_OPTIONS } from "./secrets.ts";

const KAFKA = [
	"kafka-topics",
	"kafka-topics.sh",
	"kafka-consumer-groups",
	"kafka-consumer-groups.sh",
	"kafka-delete-records",
	"kafka-delete-records.sh",
	"kafka-acls",
	"kafka-acls.sh",
];

/** kafka-topics --delete, rabbitmqctl delete_queue/purge_queue/reset, nats stream rm, aws sqs delete-queue… */
export const messagingPack: RulePack = {
	name: "messaging",
	description:
		"message-broker deletes: kafka-topics --delete, rabbitmqctl delete_*/purge_queue/reset, nats stream rm, aws sqs delete-queue/purge-queue",
	rules: [
		{
			id: "messaging/kafka",
			reason: "deletes Kafka topics, records, offsets or consumer groups",
			programs: KAFKA,
			test(command) {
				if (command.program.startsWith("kafka-delete-records")) return true;
				if (command.args.some((a) => /^--(?:delete|delete-offsets)$/.test(a)) && !command.args.includes("--dry-run"))
					return `${command.program} --delete`;
				return (
					command.args.includes("--reset-offsets") &&
					command.args.includes("--execute") &&
					"kafka-consumer-groups --reset-offsets --execute rewinds or skips messages"
				);
			},
		},
		verbRule(
			"messaging/redpanda",
			"rpk deletes topics, groups or records",
			["rpk"],
			["(topic|group|acl|user) (delete|rm)", "topic trim-prefix"],
		),
		verbRule(
			"messaging/rabbitmqctl",
			"rabbitmqctl deletes or purges queues, vhosts or users, or resets the node",
			["rabbitmqctl", "rabbitmq-queues", "rabbitmq-streams"],
			[
				"(delete_.*|purge_queue|reset|force_reset|forget_cluster_node|clear_permissions|delete_queue|delete_vhost|delete_user)",
				"(delete_member|delete_replica|delete_stream)",
			],
			{ shortValue: "np", longValue: ["node", "vhost"] },
		),
		{
			id: "messaging/rabbitmqadmin",
			reason: "rabbitmqadmin deletes or purges",
			programs: ["rabbitmqadmin"],
			test: (command) => command.args.some((a) => /^(?:delete|purge)$/.test(a)),
		},
		verbRule(
			"messaging/nats",
			"nats deletes or purges streams, consumers, keys or objects",
			["nats"],
			["(stream|str|s|consumer|con|c|kv|object|obj) (rm|del|delete|purge|rmm|destroy)", "(account|server) (purge|rm)"],
			{ longValue: ["server", "creds", "context", "user", "password"], shortValue: "s" },
		),
		verbRule(
			"messaging/aws",
			"deletes or purges SQS queues or SNS topics",
			["aws"],
			[
				"sqs (delete-queue|purge-queue)",
				"sns (delete-topic|delete-platform-application|delete-endpoint|unsubscribe)",
				"kinesis delete-stream",
				"(kafka|mq) (delete-cluster|delete-broker)",
			],
			AWS_OPTIONS,
		),
		verbRule(
			"messaging/pubsub",
			"deletes Pub/Sub topics, subscriptions or snapshots",
			["gcloud"],
			["pubsub (topics|subscriptions|snapshots|schemas|lite-topics) delete", "pubsub subscriptions seek"],
			{
				longValue: ["project", "format"],
			},
		),
		verbRule(
			"messaging/pulsar",
			"pulsar-admin deletes topics, namespaces or tenants",
			["pulsar-admin"],
			["(topics|namespaces|tenants|subscriptions|schemas) (delete|delete-partitioned-topic|unsubscribe|clear-backlog)"],
		),
	],
	protects: [
		"Kafka: kafka-topics/kafka-consumer-groups --delete, --reset-offsets --execute, kafka-delete-records; Redpanda rpk topic delete",
		"RabbitMQ: rabbitmqctl delete_*/purge_queue/reset/force_reset, rabbitmqadmin delete/purge; NATS stream/consumer/kv/object rm and purge",
		"SQS delete-queue/purge-queue, SNS delete-topic; Pub/Sub deletes and seek; Pulsar deletes",
	],
	leavesAlone: ["producing, consuming and listing (kafka-console-consumer, rabbitmqctl list_queues, nats sub, aws sqs receive-message)"],
};
