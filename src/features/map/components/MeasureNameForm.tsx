import { useState, type FormEvent } from 'react'
import { Button, Group, TextInput } from '@mantine/core'
import { MAX_MEASURE_NAME } from '#core/limits.ts'

/** Names a measurement before it is kept (a new one, or a saved one renamed); an empty name keeps the one offered. */
export function MeasureNameForm(props: {
  initial: string
  label: string
  submit: string
  onSubmit: (name: string) => void
  onCancel: () => void
}) {
  const [name, setName] = useState(props.initial)
  const submit = (e: FormEvent) => {
    e.preventDefault()
    props.onSubmit(name.trim() || props.initial)
  }
  return (
    <form onSubmit={submit} className="qh-measure-form">
      <TextInput
        size="sm"
        label={props.label}
        value={name}
        maxLength={MAX_MEASURE_NAME}
        onChange={(e) => setName(e.currentTarget.value)}
        data-autofocus
        autoFocus
        data-testid="measure-name"
      />
      <Group gap={6} mt={6} wrap="nowrap">
        <Button size="sm" type="submit" data-testid="measure-name-ok">
          {props.submit}
        </Button>
        <Button size="sm" variant="default" onClick={props.onCancel}>
          Huỷ
        </Button>
      </Group>
    </form>
  )
}
