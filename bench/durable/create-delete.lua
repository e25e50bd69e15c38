-- wrk: creates notes and deletes each one it created once (one thread's connections share a
-- queue of created ids), so the collection stays small and every request is one change of the
-- store. Headers given with -H (the key) go on both.
local created = {}
request = function()
  local id = table.remove(created)
  if id then
    return wrk.format("DELETE", "/v1/notes/" .. id)
  end
  local headers = { ["Content-Type"] = "application/json" }
  for name, value in pairs(wrk.headers) do headers[name] = value end
  return wrk.format("POST", "/v1/notes", headers, '{"text":"hello"}')
end
response = function(status, headers, body)
  if status == 200 or status == 201 then
    local id = body:match('"id"%s*:%s*"([^"]+)"')
    if id and not body:match('"deleted"') then table.insert(created, id) end
  end
end
