-- wrk: each connection creates a note, then deletes the note it created, and so on, so the
-- collection stays small and every request is one change of the store.
local pending = nil
request = function()
  if pending then
    local path = "/v1/notes/" .. pending
    pending = nil
    return wrk.format("DELETE", path)
  end
  return wrk.format("POST", "/v1/notes", { ["Content-Type"] = "application/json" }, '{"text":"hello"}')
end
response = function(status, headers, body)
  local id = body:match('"id"%s*:%s*"([^"]+)"')
  if status == 201 or status == 200 then
    if id and not body:match('"deleted"') then pending = id end
  end
end
