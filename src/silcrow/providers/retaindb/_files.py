"""RetainDB's shared file store, as tools: list, read, ingest into memory, delete.

Hermes also offers ``retaindb_upload_file``, which sends any local path the
model names to the service; silcrow leaves it out rather than let a model
upload files from the user's disk without a vetted allow-list.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any
from urllib.parse import quote

from silcrow.providers._base import ToolHandler
from silcrow.providers._http import JsonHttp
from silcrow.providers._validate import as_dict
from silcrow.recall import ToolSpec

TEXT_SUFFIXES = (".txt", ".md", ".json", ".csv", ".yaml", ".yml", ".xml", ".html")
READ_LIMIT = 32_000
_FILE_ID = {"file_id": {"type": "string", "description": "A file id from retaindb_list_files."}}

Call = Callable[[str, Callable[[], Any]], Any]


class FileTools:
    """The four file tools; ``call`` is the provider's breaker-wrapped call."""

    def __init__(self, http: Callable[[], JsonHttp], call: Call, user_id: Callable[[], str]) -> None:
        self._http, self._call, self._user = http, call, user_id

    def _json(self, method: str, path: str, **kwargs: Any) -> dict[str, Any]:
        reply = self._call(f"files:{method}", lambda: self._http().request(method, path, **kwargs))
        return as_dict("retaindb", f"{method} {path} response", reply or {})

    @staticmethod
    def _id(args: dict[str, Any]) -> str:
        file_id = args.get("file_id")
        if not isinstance(file_id, str) or not file_id.strip():
            raise ValueError("file_id is required (from retaindb_list_files)")
        return quote(file_id.strip(), safe="")

    def tools(self) -> list[tuple[ToolSpec, ToolHandler]]:
        return [
            (
                ToolSpec.of(
                    "retaindb_list_files",
                    "List files in the shared RetainDB file store.",
                    {
                        "prefix": {
                            "type": "string",
                            "description": "Only paths starting with this, e.g. /reports/",
                        },
                        "limit": {"type": "integer", "description": "At most this many (default 50)."},
                    },
                ),
                self.list_files,
            ),
            (
                ToolSpec.of(
                    "retaindb_read_file", "Read a stored text file by its id.", _FILE_ID, ["file_id"]
                ),
                self.read_file,
            ),
            (
                ToolSpec.of(
                    "retaindb_ingest_file",
                    "Extract memories from a stored file so its contents become searchable.",
                    _FILE_ID,
                    ["file_id"],
                ),
                self.ingest_file,
            ),
            (
                ToolSpec.of("retaindb_delete_file", "Delete a stored file.", _FILE_ID, ["file_id"]),
                self.delete_file,
            ),
        ]

    def list_files(self, args: dict[str, Any]) -> dict[str, Any]:
        params: dict[str, Any] = {"limit": max(1, min(int(args.get("limit") or 50), 200))}
        if isinstance(args.get("prefix"), str) and args["prefix"].strip():
            params["prefix"] = args["prefix"].strip()
        return self._json("GET", "/v1/files", params=params)

    def read_file(self, args: dict[str, Any]) -> dict[str, Any]:
        file_id = self._id(args)
        info = as_dict("retaindb", "file info", self._json("GET", f"/v1/files/{file_id}").get("file") or {})
        name, mime = str(info.get("name") or ""), str(info.get("mime_type") or "").lower()
        described = {"file_id": args["file_id"], "rdb_uri": info.get("rdb_uri"), "name": name}
        if not (mime.startswith("text/") or name.endswith(TEXT_SUFFIXES)):
            return {
                **described,
                "content": None,
                "note": "Binary file: use retaindb_ingest_file to extract its text into memory.",
            }
        path = f"/v1/files/{file_id}/content"
        data = self._call("files:read", lambda: self._http().raw("GET", path, follow_presigned=True))
        text = bytes(data).decode("utf-8", errors="replace")
        return {**described, "content": text[:READ_LIMIT], "truncated": len(text) > READ_LIMIT}

    def ingest_file(self, args: dict[str, Any]) -> dict[str, Any]:
        file_id = self._id(args)
        return self._json("POST", f"/v1/files/{file_id}/ingest", json={"user_id": self._user()})

    def delete_file(self, args: dict[str, Any]) -> dict[str, Any]:
        return self._json("DELETE", f"/v1/files/{self._id(args)}")
