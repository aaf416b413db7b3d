/** The `secrets` pack (opt-in): deleting or destroying secrets in Vault, AWS, GCP, Azure, 1Password and Doppler. */
import type { RulePack } from "../types.ts";
import { verbRule } from "./_verbs.ts";

/** Options of the aws CLI that take a value. */
export const AWS_OPTIONS = {
	longValue: [
		"profile",
		"region",
		"output",
		"endpoint-url",
		"query",
		"cli-input-json",
		"color",
		"ca-bundle",
		"cli-read-timeout",
		"cli-connect-timeout",
	],
};

/** Vault, AWS Secrets Manager/SSM/KMS, GCP Secret Manager, Azure Key Vault, 1Password, Doppler: what deletes secrets. */
export const secretsPack: RulePack = {
	name: "secrets",
	description:
		"deletes of secrets and keys: vault kv delete/destroy, aws secretsmanager delete-secret, op item delete, doppler secrets delete",
	rules: [
		verbRule(
			"secrets/vault",
			"deletes or revokes Vault secrets",
			["vault"],
			[
				"kv (delete|destroy)",
				"kv metadata delete",
				"delete",
				"(secrets|auth|audit) disable",
				"policy delete",
				"(token|lease) revoke",
				"operator (seal|raft)",
				"namespace delete",
			],
		),
		verbRule(
			"secrets/aws",
			"deletes AWS secrets, parameters or keys",
			["aws"],
			[
				"secretsmanager (delete-secret|delete-resource-policy|remove-regions-from-replication)",
				"ssm (delete-parameter|delete-parameters)",
				"kms (schedule-key-deletion|disable-key|delete-alias|delete-imported-key-material|retire-grant|revoke-grant)",
			],
			AWS_OPTIONS,
		),
		verbRule(
			"secrets/gcloud",
			"deletes GCP secrets or keys",
			["gcloud"],
			["secrets delete", "secrets versions (destroy|disable)", "kms keys versions destroy"],
			{
				longValue: ["project", "format", "location", "keyring"],
			},
		),
		verbRule(
			"secrets/azure",
			"deletes or purges Azure Key Vault secrets",
			["az"],
			["keyvault (delete|purge)", "keyvault (secret|key|certificate) (delete|purge)"],
			{
				longValue: ["name", "vault-name", "subscription", "resource-group"],
				shortValue: "ng",
			},
		),
		verbRule(
			"secrets/1password",
			"deletes 1Password items or vaults",
			["op"],
			[
				"(item|vault|document|user|group|service-account|events-api) (delete|rm|remove)",
				"connect (server|token|group|vault) (delete|rm|remove|revoke)",
			],
			{ longValue: ["vault", "account", "format", "session", "config"] },
		),
		verbRule(
			"secrets/doppler",
			"deletes Doppler secrets, configs or projects",
			["doppler"],
			["secrets (delete|rm)", "(projects|environments|configs|enclave) (delete|rm)", "configs tokens (revoke|delete)"],
			{ shortValue: "pc", longValue: ["project", "config", "token", "scope"] },
		),
	],
	protects: [
		"Vault: kv delete/destroy, metadata delete, secrets/auth disable, token/lease revoke, seal",
		"AWS Secrets Manager/SSM/KMS deletes and key deletion; GCP secrets delete; Azure Key Vault delete/purge",
		"1Password (op) item/vault/document deletes; Doppler secrets/config/project deletes",
	],
	leavesAlone: ["reading and writing secrets (vault kv get/put, op read, doppler run, aws secretsmanager get-secret-value)"],
};
