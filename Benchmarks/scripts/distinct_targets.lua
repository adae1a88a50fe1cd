-- wrk: appends a new number to the URL's path for every request, so that each target is different,
-- also between wrk's threads, which each run this script apart, and between runs, such as a warm-up
-- and the run it warms: every thread's numbers start with the run's time and the thread's own.
local threads = 0
function setup(thread)
    threads = threads + 1
    thread:set("prefix", os.time() % 100000 .. "-" .. threads .. "-")
end

local count = 0
request = function()
    count = count + 1
    return wrk.format(nil, wrk.path .. prefix .. count)
end
