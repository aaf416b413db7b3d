/** The opt-in packs: blocked when the pack is on, allowed by the default guard. */
import type { GuardCase } from "./_case.ts";

const pack = (name: "databases" | "containers" | "cloud", rule: string, commands: readonly string[]): GuardCase[] =>
	commands.flatMap((command) => [
		{ command, block: true, rule, packs: [name] },
		{ command, block: false },
	]);

export const OPT_IN: GuardCase[] = [
	...pack("databases", "databases/drop", [
		"psql -c 'DROP DATABASE prod'",
		"psql -c 'drop table users'",
		"mysql -e 'DROP SCHEMA app'",
		"mysql -e 'TRUNCATE orders'",
		"sqlite3 app.db 'DROP TABLE t'",
		"psql <<'SQL'\nDROP TABLE users;\nSQL",
		"redis-cli FLUSHALL",
		"redis-cli -n 2 flushdb",
		"mongosh --eval 'db.dropDatabase()'",
		"mongo app --eval 'db.users.drop()'",
	]),
	...pack("databases", "databases/unbounded-write", [
		"psql -c 'DELETE FROM users'",
		"mysql -e 'UPDATE accounts SET balance = 0'",
		"sqlite3 db 'delete from t;'",
		"mongosh --eval 'db.users.deleteMany({})'",
	]),
	...pack("databases", "databases/drop-tool", ["dropdb prod", "dropuser alice", "mysqladmin drop app"]),
	...pack("containers", "containers/docker-delete", [
		"docker system prune -af",
		"docker volume prune",
		"docker image prune -a",
		"docker rm -f web",
		"docker rmi -f app",
		"docker volume rm data",
		"docker compose down -v",
		"docker-compose down --volumes",
		"podman system prune",
		"docker container rm -f x",
	]),
	...pack("containers", "containers/kubectl-delete", [
		"kubectl delete namespace prod",
		"kubectl delete pods --all",
		"kubectl -n prod delete deploy api",
		"kubectl drain node-1",
		"kubectl replace --force -f x.yaml",
	]),
	...pack("containers", "containers/helm-uninstall", ["helm uninstall app", "helm delete app", "helm -n prod uninstall api"]),
	...pack("cloud", "cloud/aws-delete", [
		"aws s3 rm s3://bucket --recursive",
		"aws s3 rb s3://bucket --force",
		"aws ec2 terminate-instances --instance-ids i-1",
		"aws rds delete-db-instance --db-instance-identifier x",
		"aws s3 sync . s3://b --delete",
		"aws --profile prod dynamodb delete-table --table-name t",
		"aws iam delete-user --user-name bob",
		"aws s3api delete-bucket --bucket b",
	]),
	...pack("cloud", "cloud/gcloud-delete", [
		"gcloud compute instances delete vm-1",
		"gcloud projects delete my-project",
		"gcloud sql instances delete db",
		"gsutil rm -r gs://bucket",
		"gsutil rb gs://bucket",
	]),
	...pack("cloud", "cloud/az-delete", [
		"az group delete --name rg",
		"az vm delete -g rg -n vm",
		"az storage account delete -n acct",
		"az keyvault purge --name kv",
	]),
	...pack("cloud", "cloud/infra-destroy", [
		"terraform destroy",
		"terraform destroy -auto-approve",
		"terraform apply -destroy",
		"tofu destroy",
		"pulumi destroy --yes",
		"cdk destroy --all",
		"terraform state rm aws_instance.x",
	]),
	// With the packs on, reads stay allowed.
	...[
		"psql -c 'SELECT * FROM users'",
		"mysql -e 'DELETE FROM t WHERE id = 1'",
		"redis-cli GET k",
		"docker ps -a",
		"docker compose down",
		"kubectl get pods",
		"helm list",
		"aws s3 ls",
		"aws ec2 describe-instances",
		"gcloud compute instances list",
		"az vm list",
		"terraform plan",
		"echo 'DROP TABLE users'",
		"echo 'kubectl delete ns prod'",
	].map((command): GuardCase => ({ command, block: false, packs: ["databases", "containers", "cloud"] })),
];
