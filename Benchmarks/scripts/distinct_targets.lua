-- wrk: appends a new number to the URL's path for every request, so that each target is different.
local count = 0
request = function()
    count = count + 1
    return wrk.format(nil, wrk.path .. count)
end
