/** The `search` pack (opt-in): deleting indices or documents in Elasticsearch, OpenSearch, Meilisearch and Algolia. */
import type { RulePack } from "../types.ts";
import { HTTP_CLIENTS, httpMethod, urlsOf, verbRule } from "./_verbs.ts";

/** A URL that points at a search engine: its usual ports or host names. */
const SEARCH_HOST =
	/^(?:https?:\/\/)?(?:[^/@]*@)?(?:[^/:]*(?:elastic|opensearch|es\d*\.|search|meili|algolia)[^/:]*|[^/:]+:(?:92\d\d|7700))(?:[:/]|$)/i;
/** Paths of the search APIs that delete, whatever the host. */
const DELETE_API =
	/\/(?:_delete_by_query|_all(?:\/|$|\?)|\*(?:\/|$|\?)|_data_stream\/|_snapshot\/|_index_template\/|_ilm\/policy\/|_security\/)/;
/** Meilisearch and Algolia write endpoints that wipe: `/indexes/x`, `/1/indexes/x/clear`, `deleteByQuery`. */
const WIPE_API =
	/\/(?:indexes|1\/indexes)\/[^/?]+(?:\/(?:documents|clear|deleteByQuery|settings))?\/?(?:\?|$)|\/(?:clear|deleteByQuery)(?:\?|$)/;

/** Elasticsearch/OpenSearch/Meilisearch/Algolia deletes over HTTP, and the Algolia CLI's deletes. */
export const searchPack: RulePack = {
	name: "search",
	description: "search-engine deletes: DELETE to Elasticsearch/OpenSearch/Meilisearch/Algolia, _delete_by_query, algolia indices delete",
	rules: [
		{
			id: "search/http-delete",
			reason: "deletes indices or documents in a search engine",
			programs: HTTP_CLIENTS,
			test(command) {
				const method = httpMethod(command);
				for (const url of urlsOf(command)) {
					if (/_delete_by_query/.test(url)) return `${method} ${url}: deletes every document the query matches`;
					if (method !== "DELETE" && !(method === "POST" && /\/(?:clear|deleteByQuery)(?:\?|$)/.test(url))) continue;
					if (SEARCH_HOST.test(url) || DELETE_API.test(url) || (method === "DELETE" && WIPE_API.test(url))) return `${method} ${url}`;
				}
				return false;
			},
		},
		verbRule(
			"search/algolia",
			"the Algolia CLI deletes or clears indices, records, rules or keys",
			["algolia"],
			["(indices|index) (delete|clear)", "(objects|records|rules|synonyms|apikeys|dictionary) (delete|clear)"],
		),
		verbRule(
			"search/es-tools",
			"an Elasticsearch maintenance tool that deletes or unsafely rewrites the cluster",
			["elasticsearch-node", "curator", "curator_cli", "opensearch-node"],
			[
				"(unsafe-bootstrap|detach-cluster|remove-settings|remove-customs|override-version)",
				"(delete_indices|delete_snapshots|delete-indices)",
			],
		),
	],
	protects: [
		"HTTP DELETE (curl -X DELETE, http DELETE, wget --method=DELETE) to Elasticsearch/OpenSearch (ports 92xx, elastic/opensearch hosts, _all, *, _data_stream, _snapshot), Meilisearch (:7700, /indexes) and Algolia (/clear, deleteByQuery)",
		"_delete_by_query with any method; algolia indices delete/clear and record/rule/synonym/key deletes; elasticsearch-node unsafe-bootstrap, curator delete_indices",
	],
	leavesAlone: ["searches, indexing and GETs; DELETE requests to hosts that look like no search engine"],
};
