-- Reports: the workspace rounding rule in SQL, so report queries round each
-- entry exactly as src/modules/time-entries/rules.ts roundSeconds does.

create function rounded_seconds(p_seconds integer, p_mode text, p_minutes integer)
  returns integer language sql immutable parallel safe as $$
  select case p_mode
    when 'up' then ((p_seconds + p_minutes * 60 - 1) / (p_minutes * 60)) * p_minutes * 60
    when 'down' then (p_seconds / (p_minutes * 60)) * p_minutes * 60
    when 'nearest' then ((2 * p_seconds + p_minutes * 60) / (2 * p_minutes * 60)) * p_minutes * 60
    else p_seconds
  end
$$;

-- Decimal hours of seconds to six places, half up (rules.ts secondsToHours).
create function seconds_to_hours(p_seconds bigint)
  returns numeric language sql immutable parallel safe as $$
  select round(p_seconds::numeric / 3600, 6)
$$;
